import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { named, parsePage as parsePageFrom, textOf } from '../support/html';
import { startRealServer, type RealServer } from '../support/real-server';

/**
 * Staff screens as the production server sends them, signed in: what they show needs no browser.
 * The company's zone is New York here, the default.
 */

let server: RealServer;
let cookie: string;
let token: string;

beforeAll(async () => {
  server = await startRealServer();
  cookie = await server.signInCookie();
  token = await server.apiToken();
});

afterAll(async () => {
  await server?.close();
});

async function createParcel(name: string) {
  const answer = await server.request('/api/parcels', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    json: { sender: { name }, recipient: { name: `${name} recipient`, address: '1 Road' } },
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { parcel: { id: string; trackingNumber: string } }).parcel;
}

describe('times on staff screens', () => {
  it("are the company's, with the zone's name, not UTC", async () => {
    await createParcel('Zoned Sender');
    const { document } = await server.page('/dashboard/audit', { headers: { cookie } });
    const times = [...document.querySelectorAll('main time')].map((time) => textOf(time));
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) expect(time).toMatch(/ (EST|EDT)$/);
  });
});

describe('the audit trail', () => {
  it('shows each changed field in words, before and after, with no JSON', async () => {
    const parcel = await createParcel('Audited Sender');
    const changed = await server.request(`/api/parcels/${parcel.id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}` },
      json: {
        weight: 9,
        estimatedDelivery: '2031-01-10',
        destinations: [
          {
            name: 'Stop One',
            address: '1 First St',
            city: 'Austin',
            country: 'USA',
            postalCode: '73301',
          },
        ],
      },
    });
    expect(changed.status).toBe(200);
    const { document } = await server.page(`/dashboard/parcels/${parcel.id}/history`, {
      headers: { cookie },
    });
    const latest = document.querySelector('[aria-label="Audit entries"] > li');
    const rows = [...(latest?.querySelectorAll('tbody tr') ?? [])].map((row) => [
      textOf(row.querySelector('th')),
      ...[...row.querySelectorAll('td')].map((cell) => textOf(cell)),
    ]);
    expect(rows.find(([field]) => field === 'Weight')?.[2]).toBe('9');
    // A day, as the parcel table shows it, not its UTC midnight in New York (the evening before).
    expect(rows.find(([field]) => field === 'Estimated delivery')?.[2]).toBe('10 Jan 2031');
    const destinations = rows.find(([field]) => field === 'Destinations');
    expect(destinations?.[2]).toContain('1. Name: Stop One; Address: 1 First St; City: Austin');
    expect(textOf(latest)).not.toMatch(/[{}"]/);
  });
});

describe('the overview', () => {
  it('says which two months each change figure compares, with both figures', async () => {
    const { document } = await server.page('/dashboard', { headers: { cookie } });
    const month = (offset: number) => {
      const now = new Date();
      return new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)),
      );
    };
    const text = textOf(document.querySelector('main'));
    for (const figure of [
      'Parcels created',
      'Created and still active',
      'Created and delivered',
      'Cost of parcels created',
    ]) {
      expect(text).toMatch(
        new RegExp(`${figure}: \\$?[\\d.,]+ in ${month(0)}, \\$?[\\d.,]+ in ${month(-1)}`),
      );
    }
  });
});

describe('writing a notification', () => {
  it('previews the e-mail with its placeholders filled in for the parcel, keeping what was typed', async () => {
    const parcel = await createParcel('Preview Sender');
    const query = new URLSearchParams({
      parcelId: parcel.id,
      type: 'Status Update',
      title: 'About {{trackingNumber}}',
      message: 'Dear {{recipientName}}, your parcel is {{status}}. {{unknown}}',
      preview: '1',
    });
    const { response, document } = await server.page(`/dashboard/notifications/new?${query}`, {
      headers: { cookie },
    });
    expect(response.status).toBe(200);
    const preview = document.querySelector('section[aria-labelledby="message-preview-heading"]');
    expect(textOf(preview?.querySelector('h3'))).toBe(`Preview for ${parcel.trackingNumber}`);
    expect(textOf(preview)).toContain(`Subject: About ${parcel.trackingNumber}`);
    expect(textOf(preview)).toContain(
      'Dear Preview Sender recipient, your parcel is Pending. {{unknown}}',
    );
    // The typed text stays in the fields, not the template's.
    expect(document.querySelector('input[name="title"]')?.getAttribute('value')).toBe(
      'About {{trackingNumber}}',
    );
  });
});

describe("the table's Export selected", () => {
  it('says so when nothing is ticked, rather than exporting every parcel', async () => {
    const { response, document } = await server.page(
      '/dashboard/parcels/export.csv?back=%3Fpage%3D2&paper=a4',
      { headers: { cookie } },
    );
    expect(response.status).toBe(400);
    expect(textOf(document.querySelector('h1'))).toBe('Nothing exported');
    expect(textOf(document.querySelector('main'))).toContain('Tick the parcels to export first.');
    expect(document.querySelector('a')?.getAttribute('href')).toBe('/dashboard/parcels?page=2');
  });

  it('exports the ticked parcels only', async () => {
    const first = await createParcel('Ticked Sender');
    await createParcel('Unticked Sender');
    const answer = await server.request(`/dashboard/parcels/export.csv?ids=${first.id}`, {
      headers: { cookie },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (await answer.text()).trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(first.trackingNumber);
  });

  it('asks for a sign-in first', async () => {
    const answer = await server.request('/dashboard/parcels/export.csv?ids=x');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toMatch(/^\/management\/access/);
  });
});

describe('the import preview', () => {
  it('says what each row of an edited export changes, in words, and shows dates as the table does', async () => {
    const parcel = await createParcel('Reimported Sender');
    const exported = await server.request(`/dashboard/parcels/export.csv?ids=${parcel.id}`, {
      headers: { cookie },
    });
    const [exportedRow] = parse(await exported.text(), { columns: true }) as Record<
      string,
      string
    >[];
    const edited = { ...exportedRow!, weight: '2.5', estimatedDelivery: '2031-02-03' };
    const form = new FormData();
    form.set('intent', 'upload');
    form.set(
      'file',
      new File([stringify([edited], { header: true, columns: Object.keys(edited) })], 'edit.csv'),
    );
    const uploaded = await server.request('/dashboard/parcels/import', {
      method: 'POST',
      headers: { cookie, origin: server.base },
      body: form,
    });
    expect(uploaded.status).toBe(302);
    const { document } = await server.page(uploaded.headers.get('location')!, {
      headers: { cookie },
    });
    expect(textOf(document.querySelector('main'))).toContain(
      '0 new, 1 updated, 0 unchanged. Every row was checked',
    );
    const table = named(document, 'table', /^All 1 rows/)[0]!;
    const headers = [...table.querySelectorAll('thead th')].map((th) => textOf(th));
    const cells = [...table.querySelectorAll('tbody tr > *')];
    const cell = (name: string) => cells[headers.indexOf(name)]!;
    const days = (iso: string) =>
      new Date(iso).toLocaleDateString('en-GB', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      });
    expect(textOf(cell('Estimated delivery'))).toBe('3 Feb 2031');
    expect(textOf(cell('Change').firstElementChild)).toBe('Update');
    expect([...cell('Change').querySelectorAll('li')].map((li) => textOf(li))).toEqual([
      `Estimated delivery: ${days(exportedRow!.estimatedDelivery!)} → 3 Feb 2031`,
      'Weight: 0 → 2.5',
    ]);
    expect(textOf(cell('Tracking number'))).toBe(parcel.trackingNumber);
  });
});

describe("a courier's screens", () => {
  it('land on the scan station, offer only what a courier needs, and one tap from an answer to the proof form', async () => {
    const courier = { username: 'door-courier', password: 'door-courier-password' };
    const made = await server.request('/api/users', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      json: { ...courier, name: 'Door Courier', email: 'door@example.com', role: 'courier' },
    });
    expect(made.status).toBe(201);
    const signedIn = await server.request('/management/access', {
      method: 'POST',
      headers: { origin: server.base },
      body: new URLSearchParams(courier),
    });
    const courierCookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(signedIn.headers.get('location')).toBe('/dashboard');

    const home = await server.request('/dashboard', { headers: { cookie: courierCookie } });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/dashboard/scan');

    const parcel = await createParcel('Doorstep Sender');
    const query = '?status=Out+for+Delivery&location=Van+7';
    const answer = await server.request(`/dashboard/scan${query}`, {
      method: 'POST',
      headers: { cookie: courierCookie, origin: server.base },
      body: new URLSearchParams({
        trackingNumber: parcel.trackingNumber,
        status: 'Out for Delivery',
        location: 'Van 7',
      }),
    });
    expect(answer.status).toBe(200);
    const { document } = await server.page(`/dashboard/scan${query}`, {
      headers: { cookie: courierCookie },
    });
    const tabs = document.querySelector('nav[aria-label="Dashboard sections"]');
    expect([...tabs!.querySelectorAll('a')].map((a) => textOf(a))).toEqual([
      'Scan',
      'My run',
      'Parcels',
      'Tracking',
    ]);

    // Without JavaScript the scan is a form post answered with the page: its answer offers the
    // proof of the first stop and a failed attempt's reasons.
    const page = parsePageFrom(await answer.text());
    const status = page.querySelector('[role="status"]')!;
    const delivered = named(status, 'a', 'Delivered')[0]!;
    expect(delivered.getAttribute('href')).toBe(
      `/dashboard/scan/proof/${parcel.id}?status=Out+for+Delivery&location=Van+7&destination=0`,
    );
    expect(named(status, 'button', 'Recipient unavailable')).toHaveLength(1);
    expect(named(status, 'button', 'Failed: other')).toHaveLength(1);

    const form = await server.page(delivered.getAttribute('href')!, {
      headers: { cookie: courierCookie },
    });
    const receivedBy = named(form.document, 'label', 'Received by')[0]!;
    const input = form.document.getElementById(receivedBy.getAttribute('for')!)!;
    expect(input.hasAttribute('autofocus')).toBe(true);
    const recorded = await server.request(delivered.getAttribute('href')!, {
      method: 'POST',
      headers: { cookie: courierCookie, origin: server.base },
      body: new URLSearchParams({ destination: '0', receivedBy: 'Jo Porch' }),
    });
    expect(recorded.status).toBe(302);
    expect(recorded.headers.get('location')).toBe(
      '/dashboard/scan?status=Out+for+Delivery&location=Van+7',
    );
    const after = await server.request(`/api/parcels/${parcel.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await after.json()) as { parcel: { status: string } }).parcel.status).toBe(
      'Delivered',
    );
  });
});

describe('editing a parcel someone else changed meanwhile', () => {
  it('says so without JavaScript and shows the parcel as it is now, overwriting nothing', async () => {
    const parcel = await createParcel('Edited Twice');
    const { document: opened } = await server.page(`/dashboard/parcels/${parcel.id}/edit`, {
      headers: { cookie },
    });
    const form = opened.querySelector('input[name="weight"]')!.closest('form')!;
    // What the browser would post: every field as the page filled it, the weight changed.
    const fields = new URLSearchParams();
    for (const input of form.querySelectorAll('input[name], select[name], textarea[name]')) {
      const field = input as HTMLInputElement;
      if (field.type === 'submit' || field.type === 'button') continue;
      const value =
        field.tagName === 'SELECT'
          ? ((
              (field as unknown as HTMLSelectElement).querySelector(
                'option[selected]',
              ) as HTMLOptionElement | null
            )?.value ?? '')
          : (field.getAttribute('value') ?? '');
      fields.append(field.name, field.name === 'weight' ? '9' : value);
    }
    expect(fields.get('version')).toMatch(/^\d+$/);
    const other = await server.request(`/api/parcels/${parcel.id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}` },
      json: { weight: 4 },
    });
    expect(other.status).toBe(200);
    const { response, document } = await server.page(`/dashboard/parcels/${parcel.id}/edit`, {
      method: 'POST',
      headers: { cookie, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: fields,
    });
    expect(response.status).toBe(409);
    const edit = document.querySelector('input[name="weight"]')!.closest('form')!;
    expect(textOf(edit.querySelector('[role="alert"]'))).toBe(
      'This parcel was changed by someone else while you were editing. The form now shows it as it is: make your changes again and save.',
    );
    const weight = document.querySelector('input[name="weight"]')!.getAttribute('value');
    expect(weight).toBe('4');
    expect(document.querySelector('input[name="version"]')!.getAttribute('value')).not.toBe(
      fields.get('version'),
    );
    const stored = await server.request(`/api/parcels/${parcel.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(((await stored.json()) as { parcel: { weight: number } }).parcel.weight).toBe(4);
  });
});

describe("the staff's stylesheet", () => {
  it("is the one a courier's page links, not the public site's", async () => {
    const { document } = await server.page('/dashboard/scan', { headers: { cookie } });
    const stylesheets = [...document.querySelectorAll('link[rel="stylesheet"]')].map((node) =>
      node.getAttribute('href'),
    );
    expect(stylesheets).toEqual([expect.stringMatching(/^\/build\/_assets\/staff-\w+\.css$/)]);
  });
});
