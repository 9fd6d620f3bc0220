import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientCookie } from '~/lib/cookies.server';
import { env } from '~/lib/env.server';
import { languageCookie } from '~/lib/i18n.server';
import { named, parsePage, textOf } from '../support/html';
import { PUBLIC_PAGES } from '../support/public-pages';
import { startRealServer, type RealServer } from '../support/real-server';
import { VISITOR_BOOKING } from '../support/factories';

/**
 * The public pages as the production server sends them: their titles and headings, that they
 * carry none of the framework's JavaScript, and their caching headers. What only a browser shows
 * (layout, narrow screens, a toast closing) is checked in tests/e2e.
 */

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer();
});

afterAll(async () => {
  await server?.close();
});

/** Level-one headings, as the accessibility tree has them. */
const H1 = 'h1, [role="heading"][aria-level="1"]';

/** The page's footer landmark (a footer that belongs to no section of the page). */
const contentinfo = (document: Document) =>
  [...document.querySelectorAll('footer, [role="contentinfo"]')].find(
    (node) =>
      node.getAttribute('role') === 'contentinfo' ||
      !node.closest('article, aside, main, nav, section'),
  );

describe('public pages ship no framework JavaScript', () => {
  for (const path of [...PUBLIC_PAGES, '/track?number=SWX123456789']) {
    it(`${path} loads no script file`, async () => {
      const { document } = await server.page(path);
      expect(document.querySelectorAll('script[src]')).toHaveLength(0);
      expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
      expect(document.querySelectorAll('link[rel="preload"][as="script"]')).toHaveLength(0);
      // The public site's own stylesheet, without the dashboard's classes.
      const stylesheets = [...document.querySelectorAll('link[rel="stylesheet"]')].map((node) =>
        node.getAttribute('href'),
      );
      expect(stylesheets).toEqual([expect.stringMatching(/^\/build\/_assets\/public-\w+\.css$/)]);
      // Inline scripts: only the carousel's loop on the home page, small and with the nonce.
      const inline = [...document.querySelectorAll('script')].map((node) => ({
        nonce: node.getAttribute('nonce'),
        text: node.textContent ?? '',
      }));
      expect(inline.length).toBeLessThanOrEqual(path === '/' ? 1 : 0);
      for (const script of inline) {
        expect(script.text.length).toBeLessThanOrEqual(1500);
        expect(script.nonce).toBeTruthy();
        expect(script.text).not.toContain('__remixContext');
      }
    });
  }

  it('the staff pages load every route from one manifest file, with no route discovery endpoint', async () => {
    const { document } = await server.page('/management/access');
    const manifest = [...document.querySelectorAll('link[rel="modulepreload"], script[src]')]
      .map((node) => node.getAttribute('href') ?? node.getAttribute('src') ?? '')
      .find((url) => /\/build\/manifest-[A-Z0-9]+\.js$/.test(url));
    expect(manifest).toBeTruthy();
    const file = await server.request(manifest!);
    expect(file.status).toBe(200);
    const routes = await file.text();
    for (const id of ['routes/dashboard.tracking.$parcelId', 'routes/dashboard.parcels.options'])
      expect(routes).toContain(JSON.stringify(id));
    // No /__manifest: a discovery query is an unknown page like any other.
    const discovery = await server.request(`/__manifest?version=1&p=${'/a'.repeat(3700)}`);
    expect(discovery.status).toBe(404);
  });

  it('the staff sign-in page keeps the framework', async () => {
    const { document } = await server.page('/management/access');
    expect(
      document.querySelectorAll('script[src], link[rel="modulepreload"]').length,
    ).toBeGreaterThan(0);
    const inline = [...document.querySelectorAll('script:not([src])')].map(textOf);
    expect(inline.some((text) => text.includes('window.__remixContext'))).toBe(true);
  });
});

const PAGES = [
  {
    path: '/',
    heading: /fast, reliable parcel delivery and tracking worldwide/i,
    title: /parcel delivery/i,
  },
  {
    path: '/services',
    heading: 'Shipping services built around your deadlines',
    title: /Services & Pricing/,
  },
  { path: '/about', heading: /^About /, title: /About Us/ },
  { path: '/contact', heading: 'Get in touch with our team', title: /Contact Us/ },
  { path: '/quote', heading: 'Request a shipping quote', title: /Get a Quote/ },
  { path: '/privacy-policy', heading: 'Privacy Policy', title: /Privacy Policy/ },
  { path: '/terms-of-service', heading: 'Terms of Service', title: /Terms of Service/ },
  { path: '/cookie-policy', heading: 'Cookie Policy', title: /Cookie Policy/ },
];

describe('the public site', () => {
  for (const { path, heading, title } of PAGES) {
    it(`${path} renders with its one h1 and title`, async () => {
      const { response, document } = await server.page(path);
      expect(response.status).toBe(200);
      expect(document.querySelectorAll(H1)).toHaveLength(1);
      expect(named(document, H1, heading)).toHaveLength(1);
      expect(document.title).toMatch(title);
      expect(document.title).toMatch(/ · SwiftShip Courier$/);
      expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(
        /.{40,}/,
      );
      expect(textOf(contentinfo(document))).toContain('© 2024');
      if (/policy|terms/.test(path))
        expect(textOf(document.querySelector('main'))).toContain('Last updated: December 15, 2024');
    });
  }

  it('the cookie policy names every cookie the site sets, with what it is for', async () => {
    const { document } = await server.page('/cookie-policy');
    const rows = [...document.querySelectorAll('main table tbody tr')].map((row) => textOf(row));
    for (const name of ['__session', '__flash', languageCookie.name, recipientCookie.name])
      expect(
        rows.find((row) => row.startsWith(name)),
        name,
      ).toMatch(/\w+ .{20,}/);
    expect(rows.find((row) => row.startsWith('lang'))).toContain('One year');
  });

  it('the terms state the claims window, advance fees and estimated delivery times', async () => {
    const { document } = await server.page('/terms-of-service');
    const text = textOf(document.querySelector('main'));
    expect(text).toMatch(/within 30 days after delivery/);
    expect(text).toMatch(/All fees are paid in advance/);
    expect(text).toMatch(/Delivery times are estimates only/);
  });

  it('an unknown page shows the 404 page', async () => {
    const { response, document } = await server.page('/no-such-page-here');
    expect(response.status).toBe(404);
    expect(document.title).toBe('Page not found · SwiftShip Courier');
    expect(named(document, H1, 'Oops! Page not found')).toHaveLength(1);
    const home = named(document, 'main a[href]', 'Return to Home');
    expect(home).toHaveLength(1);
    expect(home[0]!.getAttribute('href')).toBe('/');
  });

  it("the browser's /favicon.ico request gets the icon and leaves a pending toast for the page", async () => {
    const browser = server.visitor();
    // A form answer that sets a toast for the next page (the contact form's bot trap needs no mail).
    const answer = await browser('/contact', {
      method: 'POST',
      body: new URLSearchParams({ website: 'filled by a bot', firstName: 'Bot' }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);

    const icon = await browser('/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');

    const page = await browser('/about');
    const toasts = parsePage(await page.text()).querySelector(
      '[role="status"][aria-label="Notifications"]',
    );
    expect(textOf(toasts)).toContain('Message sent');
  });
});

describe('a refused form after a reload without JavaScript', () => {
  for (const path of ['/contact', '/quote']) {
    it(`${path}: the summary is first in <main>, the fragment's target, and links to each field`, async () => {
      const { document: empty } = await server.page(path);
      const form = empty.querySelector('main form[method="post"]');
      expect(form?.getAttribute('action')).toBe(`${path}#errors`);

      const answer = await server.request(path, {
        method: 'POST',
        body: new URLSearchParams({ email: 'not an address' }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.status).toBe(400);
      const document = parsePage(await answer.text());
      const summary = document.querySelector('main')!.firstElementChild!;
      expect(summary.id).toBe('errors');
      expect(summary.getAttribute('tabindex')).toBe('-1');
      expect(textOf(summary.querySelector('h2'))).toBe('There is a problem with what you sent');
      const links = [...summary.querySelectorAll('a')];
      expect(links.length).toBeGreaterThan(1);
      for (const link of links) {
        const field = document.getElementById(link.getAttribute('href')!.slice(1));
        expect(field?.matches('input, select, textarea'), link.textContent!).toBe(true);
        expect(field!.getAttribute('aria-invalid')).toBe('true');
      }
    });
  }
});

describe('HTTP caching', () => {
  it('marketing pages are public for five minutes, and 304 while unchanged', async () => {
    for (const path of ['/', '/services', '/about', '/privacy-policy']) {
      const first = await server.request(path);
      expect(first.headers.get('cache-control'), path).toBe('public, max-age=300');
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^W\/"/);
      // The home page's nonce differs on every answer; its ETag does not.
      const again = await server.request(path, { headers: { 'If-None-Match': etag! } });
      expect(again.status, path).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
      expect(again.headers.get('content-security-policy')).toBeNull();
      const other = await server.request(path, { headers: { 'If-None-Match': 'W/"stale"' } });
      expect(other.status).toBe(200);
    }
  });

  it('a tracking result and the tracking API revalidate every time', async () => {
    const created = await server.request('/api/parcels', {
      method: 'POST',
      headers: { authorization: `Bearer ${await server.apiToken()}` },
      json: { recipient: { name: 'Cache Check', address: '5 Etag Way' } },
    });
    expect(created.status).toBe(201);
    const number = ((await created.json()) as { parcel: { trackingNumber: string } }).parcel
      .trackingNumber;
    for (const path of [`/track?number=${number}`, `/api/tracking/track/${number}`]) {
      const first = await server.request(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control'), path).toBe('private, no-cache');
      const etag = first.headers.get('etag')!;
      expect(etag, path).toBeTruthy();
      const again = await server.request(path, { headers: { 'If-None-Match': etag } });
      expect(again.status, path).toBe(304);
    }
  });
});

/**
 * A visitor's booking paid by card, before any script runs: /quote's Book and pay forms, the
 * booking form, and its post (same-origin, as a browser sends it without JavaScript) answered with
 * a redirect to Stripe Checkout (msw stands in for Stripe's API; the server shares this process's
 * configuration).
 */
const stripeApi = setupServer(
  http.post('https://api.stripe.com/v1/checkout/sessions', () =>
    HttpResponse.json({
      id: 'cs_test_server1a2B3c',
      object: 'checkout.session',
      url: 'https://checkout.stripe.com/c/pay/cs_test_server1a2B3c',
    }),
  ),
);

const pricer =
  'fromCountry=US&fromPostalCode=97201&toCountry=US&toPostalCode=62701&weight=0.8&length=20&width=15&height=10';

describe('booking and paying by card without JavaScript', () => {
  beforeAll(() => {
    stripeApi.listen({ onUnhandledRequest: 'bypass' });
    Object.assign(env, {
      STRIPE_SECRET_KEY: 'sk_test_serverbooking01',
      STRIPE_WEBHOOK_SECRET: 'whsec_serverbooking0123456',
    });
  });

  afterAll(() => {
    Object.assign(env, { STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined });
    stripeApi.close();
  });

  it('books a price from /quote in plain forms and is sent on to Stripe Checkout', async () => {
    const { document: quote } = await server.page(`/quote?${pricer}&lang=de`);
    const bookForms = [...quote.querySelectorAll('form[action="/book"][method="post"]')];
    expect(bookForms).toHaveLength(4);
    expect(quote.querySelectorAll('script[src]')).toHaveLength(0);
    const express = bookForms.find(
      (form) => form.querySelector('[name=serviceType]')?.getAttribute('value') === 'Express',
    )!;
    expect(textOf(express.querySelector('button'))).toBe('Buchen und bezahlen');
    const fields = new URLSearchParams(
      [...express.querySelectorAll('input')].map((input) => [
        input.getAttribute('name')!,
        input.getAttribute('value') ?? '',
      ]),
    );
    const origin = { origin: server.base };
    const held = await server.request('/book', { method: 'POST', headers: origin, body: fields });
    expect(held.status).toBe(303);
    const formPath = held.headers.get('location')!;
    expect(formPath).toMatch(/^\/book\?quote=[a-f\d]{24}&lang=de$/);

    const { response, document } = await server.page(formPath);
    expect(response.status).toBe(200);
    expect(document.querySelectorAll('script[src]')).toHaveLength(0);
    expect(document.documentElement.getAttribute('lang')).toBe('de');
    const form = document.querySelector('form[method="post"]')!;
    expect(textOf(form.querySelector('button[type=submit]'))).toBe('Buchen und per Karte bezahlen');
    const quoteId = form.querySelector('[name=quoteId]')!.getAttribute('value')!;
    const booking = new URLSearchParams({
      quoteId,
      lang: 'de',
      ...VISITOR_BOOKING,
    });
    const action = form.getAttribute('action')!;
    const paid = await server.request(action, { method: 'POST', headers: origin, body: booking });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      'https://checkout.stripe.com/c/pay/cs_test_server1a2B3c',
    );
    // Another site's page cannot book.
    const forged = await server.request(action, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: booking,
    });
    expect(forged.status).toBe(403);
  });
});
