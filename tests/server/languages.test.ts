import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '~/lib/i18n.server';
import { LANGUAGE_CODES, languageDirection, type Language } from '~/schemas/languages';
import { pageFigures } from '~/utils/page-figures';
import { parsePage, textOf } from '../support/html';
import { PUBLIC_PAGES } from '../support/public-pages';
import { startRealServer, type RealServer } from '../support/real-server';

/**
 * The public pages in the reader's language, as the production server sends them: `?lang=`, the
 * footer's choice, the recipient's language on a tracking result, `Accept-Language`, in that
 * order; `<html lang dir>`, the alternates in every language, and no message's key left showing.
 */

let server: RealServer;
let trackingNumber: string;
let frenchParcel: string;

beforeAll(async () => {
  server = await startRealServer();
  const auth = { authorization: `Bearer ${await server.apiToken()}` };
  const create = async (language: string) => {
    const created = await server.request('/api/parcels', {
      method: 'POST',
      headers: auth,
      json: {
        recipient: { name: 'Ana Ruiz', address: '9 Elm St, Boston', language },
        // Friday, 26 November 2027: a promise still ahead.
        estimatedDelivery: '2027-11-26',
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    return ((await created.json()) as { parcel: { trackingNumber: string } }).parcel.trackingNumber;
  };
  trackingNumber = await create('');
  frenchParcel = await create('fr-CA');
});

afterAll(async () => {
  await server?.close();
});

const html = (document: Document) => document.documentElement;

/** A page as a browser asking for `acceptLanguage` reads it: its language, direction, headline. */
async function read(path: string, acceptLanguage?: string) {
  const { response, document } = await server.page(
    path,
    acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : undefined,
  );
  return {
    response,
    document,
    lang: html(document).getAttribute('lang'),
    dir: html(document).getAttribute('dir'),
    headline: textOf(document.querySelector('[data-headline]')),
  };
}
/** A message's key shown instead of its words ("track.title", "footer.language", "home.why.title"). */
const RAW_KEY =
  /\b(layout|footer|track|errors|result|status|service|delivery|subscribe|manage|proof|links|common|carousel|trackingBox|servicesSection|home|about|services|inquiry|contact|quote|legal|privacy|terms|cookies|notFound)\.[a-z][a-zA-Z]*\b/;

type Messages = { [key: string]: string | Messages };
const pagesMessages = (language: Language): Messages =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, 'pages.json'), 'utf8'));
const PAGES_TEXT = Object.fromEntries(
  LANGUAGE_CODES.map((language) => [language, pagesMessages(language)]),
) as Record<Language, Messages>;
const message = (language: Language, key: string) =>
  key
    .split('.')
    .reduce<string | Messages>(
      (node, part) => (node as Messages)[part]!,
      PAGES_TEXT[language],
    ) as string;

/** Words as `textOf` reads them: any white space (no-break ones included) as one space. */
const asRead = (words: string) => words.replace(/\s+/g, ' ').trim();

/** Every message of the marketing pages, flattened: key → words. */
function flat(messages: Messages, prefix = ''): Array<[string, string]> {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flat(value, `${prefix}${key}.`),
  );
}

/**
 * The English words of the marketing pages that another language must not show: each message's
 * runs of text between its placeholders and tags, when the language says them otherwise.
 */
function englishRuns(language: Language): string[] {
  const own = new Map(flat(PAGES_TEXT[language]));
  return flat(PAGES_TEXT.en)
    .filter(([key, words]) => own.get(key) !== words)
    .flatMap(([, words]) => words.split(/\{[^}]*\}|<\/?\d+>/))
    .map(asRead)
    .filter((run) => run.length >= 20);
}

/** Messages each marketing page shows in its body, in the page's language. */
const PAGE_PHRASES: Record<string, string[]> = {
  '/': ['home.how.title', 'home.faq.track.question', 'servicesSection.freight.description'],
  '/services': ['services.heading', 'services.times.intro', 'services.plans.premium.summary'],
  '/about': ['about.story.p2', 'about.mission.text', 'about.timeline.2015'],
  '/contact': ['contact.heading', 'contact.form.hint', 'contact.faq.include.question'],
  '/quote': ['quote.heading', 'quote.needs', 'inquiry.originPlaceholder'],
  '/privacy-policy': ['privacy.collect.heading', 'privacy.bases.text', 'privacy.retention.text'],
  '/terms-of-service': ['terms.booking.packed', 'terms.times.text', 'terms.claims.window'],
  '/cookie-policy': ['cookies.what.text', 'cookies.used.sessionPurpose', 'cookies.managing.text'],
  '/no-such-page-here': ['notFound.heading', 'notFound.text', 'notFound.home'],
};

/**
 * A marketing page in `language`: its own words (a few known phrases, its prices and its update
 * date written the language's way), none of the English ones, and the language's direction.
 */
function expectPageIn(pagePath: string, language: Language, document: Document) {
  const phrases = PAGE_PHRASES[pagePath];
  if (!phrases) return;
  expect(html(document).getAttribute('dir'), pagePath).toBe(languageDirection(language));
  const main = document.querySelector('main')!;
  const text =
    textOf(main) +
    ' ' +
    [...main.querySelectorAll('[placeholder]')]
      .map((input) => input.getAttribute('placeholder'))
      .join(' ');
  for (const key of phrases)
    expect(text, `${pagePath} in ${language}`).toContain(asRead(message(language, key)));
  if (language !== 'en')
    for (const run of englishRuns(language))
      expect(text, `${pagePath} in ${language}`).not.toContain(run);
  if (pagePath === '/services') expect(text).toContain(asRead(pageFigures(language).premium));
  if (pagePath.endsWith('-policy') || pagePath.startsWith('/terms'))
    expect(text).toContain(
      asRead(
        new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
          new Date('2024-12-15T12:00:00Z'),
        ),
      ),
    );
}

describe('the language of a public page', () => {
  it('?lang= answers in that language: lang, the headline written its way, no raw keys', async () => {
    const { document } = await server.page(`/track?number=${trackingNumber}&lang=es`);
    expect(html(document).getAttribute('lang')).toBe('es');
    expect(html(document).getAttribute('dir')).toBe('ltr');
    expect(textOf(document.querySelector('h1'))).toBe('Seguir envío');
    // The spec's "Arriving Friday, 27 November, by 6 pm" as Spanish writes it (the page is
    // read after that day, so the headline may say it is late: the expected day says it).
    expect(textOf(document.querySelector('[data-headline]'))).toBe(
      'Llega el viernes 26 de noviembre antes de las 18:00 EST',
    );
    expect(textOf(document.body)).not.toMatch(RAW_KEY);
  });

  it('Accept-Language answers in the browser’s language, and Arabic right to left', async () => {
    const german = await read(`/track?number=${trackingNumber}`, 'de-DE,de;q=0.9,en;q=0.5');
    expect(german.lang).toBe('de');
    expect(german.headline).toBe('Zustellung am Freitag, 26. November, bis 18:00 EST');
    expect(german.response.headers.get('vary')).toMatch(/Accept-Language/);
    const arabic = await read(`/track?number=${trackingNumber}`, 'ar');
    expect([arabic.lang, arabic.dir]).toEqual(['ar', 'rtl']);
    expect(textOf(arabic.document.querySelector('h1'))).toBe('تتبّع شحنة');
  });

  it('a tracking result speaks its recipient’s language, unless the visitor chose one', async () => {
    const own = await read(`/track?number=${frenchParcel}`, 'de');
    expect(own.lang).toBe('fr');
    expect(own.headline).toBe('Arrive le vendredi 26 novembre, avant 18:00 EST');
    expect((await read(`/track?number=${frenchParcel}&lang=en`)).lang).toBe('en');
    // Unknown or nonsense languages are ignored: the default.
    const odd = await read('/track?lang=xx-%3Cscript%3E');
    expect(odd.response.status).toBe(200);
    expect(odd.lang).toBe('en');
  });

  it('the footer’s picker is a plain form: its answer sets the cookie and comes back', async () => {
    const { document } = await server.page('/about?lang=es');
    const form = document.querySelector('form[action="/language"]')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.querySelector('select[name="lang"]')).not.toBeNull();
    const back = form.querySelector<HTMLInputElement>('input[name="redirectTo"]')!.value;
    const answer = await server.request('/language', {
      method: 'POST',
      headers: { origin: server.base },
      body: new URLSearchParams({ lang: 'fr', redirectTo: back }),
    });
    expect(answer.status).toBe(302);
    // Back to the page, without the ?lang= that would outrank the choice.
    expect(answer.headers.get('location')).toBe('/about');
    const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
    const page = await server.page('/about', { headers: { cookie } });
    expect(html(page.document).getAttribute('lang')).toBe('fr');
    // A language we do not write changes nothing.
    const refused = await server.request('/language', {
      method: 'POST',
      headers: { origin: server.base },
      body: new URLSearchParams({ lang: 'xx', redirectTo: '/' }),
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it('a refused contact form answers in the page’s language, and its action keeps the language', async () => {
    const answer = await server.request('/contact?lang=de', {
      method: 'POST',
      body: new URLSearchParams({ email: 'not an address', lang: 'de' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(400);
    const document = parsePage(await answer.text());
    const summary = document.getElementById('errors')!;
    expect(textOf(summary.querySelector('h2'))).toBe(message('de', 'inquiry.errors.problem'));
    expect(textOf(summary)).toContain('„Vorname“ ist ein Pflichtfeld');
    expect(textOf(summary)).toContain('Bitte geben Sie eine gültige E-Mail-Adresse ein');
    expect(textOf(summary)).not.toMatch(/is required|valid email/);
    expect(document.querySelector('main form[method="post"]')!.getAttribute('action')).toBe(
      '/contact?lang=de#errors',
    );
  });

  it('every public page names its languages (hreflang), renders no key and, for the marketing pages, no English words, in every language', async () => {
    for (const path of PUBLIC_PAGES)
      for (const language of LANGUAGE_CODES) {
        const response = await server.request(`${path}?lang=${language}`);
        const source = await response.text();
        const document = parsePage(source);
        expect(html(document).getAttribute('lang'), path).toBe(language);
        // HTML's attributes have no case: React writes hrefLang, browsers read hreflang.
        const alternates = [
          ...source.matchAll(/<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)"/gi),
        ];
        expect(alternates.map((link) => link[1])).toEqual([...LANGUAGE_CODES, 'x-default']);
        expect(alternates.at(-1)![2]).toMatch(new RegExp(`${path}$`));
        // A tracking result in every language stays within its 14 KB, compressed.
        if (path === '/track') {
          const result = await server.request(`/track?number=${trackingNumber}&lang=${language}`);
          expect(gzipSync(await result.text()).length).toBeLessThan(14 * 1024);
        }
        expect(document.querySelector('link[rel="canonical"]')!.getAttribute('href')).toMatch(
          new RegExp(`\\?lang=${language}$`),
        );
        for (const script of document.querySelectorAll('script')) script.remove();
        expectPageIn(path, language, document);
        expect(textOf(document.body), `${path} in ${language}`).not.toMatch(RAW_KEY);
        expect(document.title, `${path} in ${language}`).not.toMatch(RAW_KEY);
        // Still no framework JavaScript.
        expect(document.querySelectorAll('script[src]').length).toBe(0);
      }
    const plain = await server.page('/services');
    expect(plain.document.querySelector('link[rel="canonical"]')!.getAttribute('href')).toMatch(
      /\/services$/,
    );
  });
});
