import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { named, parsePage, submitGetForm, textOf } from '../support/html';
import { fileOf, jpegWithGps } from '../support/images';
import { startRealServerWithAuth, type RealServer } from '../support/real-server';

/**
 * The track page and the batch tracking API as the production server sends them. The page runs no
 * script, so what the server renders is what a visitor sees; typing in the box and following the
 * summaries are checked in a browser (tests/e2e/track.spec.ts).
 */

let server: RealServer;
let auth: Record<string, string>;

beforeAll(async () => {
  ({ server, auth } = await startRealServerWithAuth());
});

afterAll(() => server?.close());

async function createParcel(events: Array<{ status: string; location: string }> = []) {
  const contact = { name: 'Quiet Parcel', email: 'q@example.com', phone: '555-0100' };
  const created = await server.request('/api/parcels', {
    method: 'POST',
    headers: auth,
    json: {
      sender: { ...contact, address: '1 Sender Way, Austin' },
      recipient: { ...contact, address: '9 Elm St, Boston' },
      weight: 1,
      serviceType: 'Standard',
    },
  });
  expect(created.status).toBe(201);
  const { parcel } = (await created.json()) as { parcel: { id: string; trackingNumber: string } };
  for (const event of events) {
    const added = await server.request(`/api/tracking/${parcel.id}/events`, {
      method: 'POST',
      headers: auth,
      json: event,
    });
    expect(added.status).toBe(201);
  }
  parcelIds.set(parcel.trackingNumber, parcel.id);
  return parcel.trackingNumber;
}
const parcelIds = new Map<string, string>();

/** Types `value` in the track page's box, presses Track and reads the page that answers. */
async function track(value: string) {
  const { document: empty } = await server.page('/track');
  return server.page(submitGetForm(empty, { label: 'Tracking number', value, button: 'Track' }));
}

const alertText = (document: Document) => textOf(document.querySelector('[role="alert"]'));

describe('tracking a parcel', () => {
  it('an empty box asks for a number', async () => {
    const { document } = await track('   ');
    expect(alertText(document)).toBe('Please enter a tracking number');
  });

  const steps = (document: Document) =>
    [...document.querySelectorAll('[role="alert"] li')].map((li) => textOf(li));

  it('an unknown number says so, and what to try next', async () => {
    const { document } = await track('ZZZ999999995');
    expect(textOf(document.querySelector('[role="alert"] p'))).toBe('Tracking number not found');
    expect(steps(document)).toEqual([
      'Check each letter and digit against your receipt or e-mail. The last digit checks the eight before it, so most typing mistakes are caught here.',
      'A parcel booked in the last few hours may not be scanned yet: try again later.',
      'Still not found? Contact us with the number and we will look it up.',
    ]);
    expect(document.querySelector('[role="alert"] a')?.getAttribute('href')).toBe('/contact');
  });

  it('a number that fails its check digit says which digits to check', async () => {
    const { document } = await track('ZZZ999999999');
    expect(textOf(document.querySelector('[role="alert"] p'))).toBe('Tracking number not found');
    expect(steps(document)[0]).toBe(
      'Please check the digits of ZZZ 99999999 9: the last digit, 9, does not match the eight before it, so one of these nine digits is probably mistyped.',
    );
  });

  it('a malformed number is explained', async () => {
    const { document } = await track('SWX12345');
    expect(alertText(document)).toBe(
      'Tracking numbers are three letters and nine digits, like ABC123456789',
    );
  });

  it('a parcel without events says there are none yet', async () => {
    const number = await createParcel();
    const { document } = await server.page(`/track?number=${number}`);
    expect(textOf(document.querySelector('main'))).toContain(
      'No tracking events found for this package.',
    );
  });

  it('the result page needs no JavaScript at all, and carries the parcel as ParcelDelivery data', async () => {
    const number = await createParcel([{ status: 'In Transit', location: 'Hub' }]);
    const window = { from: '2030-07-02T14:00:00-04:00', until: '2030-07-02T16:00:00-04:00' };
    const changed = await server.request(`/api/parcels/${number}`, {
      method: 'PUT',
      headers: auth,
      json: { estimatedDelivery: '2030-07-02', deliveryWindow: window },
    });
    expect(changed.status).toBe(200);
    const { response, document } = await server.page(`/track?number=${number}`);
    expect(response.status).toBe(200);
    expect(named(document, 'h1, h2, h3, h4, h5, h6, [role="heading"]', number)).toHaveLength(1);
    expect(textOf(document.querySelector('main'))).toContain('Tracking history');
    // Data, not script: a browser runs none of it.
    const scripts = [...document.querySelectorAll('script')];
    expect(scripts.map((script) => script.getAttribute('type'))).toEqual(['application/ld+json']);
    expect(JSON.parse(scripts[0]!.textContent!)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ParcelDelivery',
      trackingNumber: number,
      trackingUrl: expect.stringMatching(new RegExp(`/track\\?number=${number}$`)),
      expectedArrivalFrom: '2030-07-02T18:00:00.000Z',
      expectedArrivalUntil: '2030-07-02T20:00:00.000Z',
      deliveryStatus: { '@type': 'DeliveryEvent', name: 'In Transit' },
      hasDeliveryMethod: 'http://purl.org/goodrelations/v1#DeliveryModeParcelService',
      provider: { '@type': 'Organization', name: expect.any(String) },
    });
  });
});

describe('the result at a glance', () => {
  const parcelId = (number: string) => parcelIds.get(number)!;

  it('a delivered parcel says when and to whom, and shows no estimate', async () => {
    const number = await createParcel([{ status: 'Out for Delivery', location: 'Boston' }]);
    const form = new FormData();
    form.append('receivedBy', 'Jane Smith');
    const proof = await server.request(`/api/parcels/${parcelId(number)}/proof-of-delivery`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(proof.status).toBe(201);
    const { document } = await server.page(`/track?number=${number}`);
    const main = textOf(document.querySelector('main'));
    expect(textOf(document.querySelector('[data-headline]'))).toMatch(
      /^Delivered \w+day, \d{1,2} \w+ at \d{1,2}(:\d\d)? [ap]m [A-Z]{3}, received by J\. S\.$/,
    );
    expect(main).toContain('Received by J. S.');
    expect(main).not.toMatch(/Estimated|Expected delivery|Arriving/);
    expect(document.querySelector('[aria-current="step"]')?.textContent).toContain('Delivered');
  });

  it('a status set in the edit form is the latest event too', async () => {
    const number = await createParcel([{ status: 'Package Picked Up', location: 'Austin' }]);
    const changed = await server.request(`/api/parcels/${parcelId(number)}`, {
      method: 'PUT',
      headers: auth,
      json: { status: 'In Transit' },
    });
    expect(changed.status).toBe(200);
    const { document } = await server.page(`/track?number=${number}`);
    expect(textOf(document.querySelector('[data-status]'))).toBe('In Transit');
    const latest = [...document.querySelectorAll('dt')].find(
      (dt) => dt.textContent === 'Latest event',
    );
    expect(textOf(latest!.nextElementSibling)).toMatch(/^In Transit/);
    expect(document.querySelector('[aria-current="step"]')?.textContent).toContain('In transit');
  });
});

describe('managing the delivery from the result, without JavaScript', () => {
  it('the postcode opens the form: a wrong one says so beside its field, the right one saves', async () => {
    const number = await createParcel([{ status: 'In Transit', location: 'Hub' }]);
    const id = parcelIds.get(number)!;
    const put = await server.request(`/api/parcels/${id}`, {
      method: 'PUT',
      headers: auth,
      json: { recipient: { postalCode: '02108' } },
    });
    expect(put.status).toBe(200);
    const { document } = await server.page(`/track?number=${number}`);
    const form = document.querySelector('form#manage-delivery')!;
    expect(form.getAttribute('action')).toBe(`/track?number=${number}#manage`);
    const day = [...form.querySelectorAll('select[name="requestedDate"] option')]
      .map((o) => o.getAttribute('value'))
      .filter(Boolean)[0]!;
    const post = (postalCode: string) =>
      server.request(`/track?number=${number}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          intent: 'preferences',
          postalCode,
          requestedDate: day,
          safePlace: 'porch',
          instructions: 'Side gate',
        }),
      });

    const wrong = await post('99999');
    expect(wrong.status).toBe(403);
    const refused = parsePage(await wrong.text());
    const field = refused.querySelector('#manage-delivery input[name="postalCode"]')!;
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(textOf(refused.getElementById(field.getAttribute('aria-describedby')!))).toBe(
      'That postcode does not match the delivery address',
    );

    const right = await post(' 02108 ');
    expect(right.status).toBe(302);
    expect(right.headers.get('location')).toBe(`/track?number=${number}&preferences=saved#manage`);
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!;
    const { document: saved } = await server.page(`/track?number=${number}&preferences=saved`, {
      headers: { cookie },
    });
    expect(textOf(saved.querySelector('#manage [role="status"]'))).toBe(
      'Your delivery preferences are saved. The courier will see them.',
    );
    // What was saved is shown back, and the form starts from it, to this browser only.
    const shownBack = textOf(saved.querySelector('[data-saved-preferences]'));
    expect(shownBack).toContain('Safe place: In the porch');
    expect(shownBack).toContain('Instructions: Side gate');
    expect(
      saved
        .querySelector(`select[name="requestedDate"] option[value="${day}"]`)!
        .hasAttribute('selected'),
    ).toBe(true);
    // The day asked for is now the expected day, in the headline too.
    expect(textOf(saved.querySelector('[data-headline]'))).toMatch(/, the day you asked for$/);
    const { document: stranger } = await server.page(`/track?number=${number}`);
    expect(stranger.querySelector('[data-saved-preferences]')).toBeNull();
    expect(textOf(stranger.querySelector('main'))).not.toContain('Side gate');
    const staff = await server.request(`/api/parcels/${id}`, { headers: auth });
    const { parcel } = (await staff.json()) as { parcel: { deliveryPreferences: unknown } };
    expect(parcel.deliveryPreferences).toMatchObject({
      requestedDate: day,
      safePlace: 'porch',
      instructions: 'Side gate',
    });
  });
});

describe('the proof of delivery, through the recipient’s link and behind the postcode', () => {
  it('the postcode alone opens nothing; the delivered e-mail’s link and the postcode show the photo', async () => {
    const number = await createParcel([{ status: 'Out for Delivery', location: 'Boston' }]);
    const id = parcelIds.get(number)!;
    await server.request(`/api/parcels/${id}`, {
      method: 'PUT',
      headers: auth,
      json: { recipient: { postalCode: 'BN1 1AA' } },
    });
    const form = new FormData();
    form.append('receivedBy', 'Jane Smith');
    form.append('photo', fileOf(await jpegWithGps(300, 200), 'door.jpg', 'image/jpeg'));
    const recorded = await server.request(`/api/parcels/${id}/proof-of-delivery`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(recorded.status).toBe(201);

    const { document } = await server.page(`/track?number=${number}`);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(document.querySelector('#proof form')).toBeNull();
    expect(textOf(document.querySelector('#proof'))).toContain(
      'open the link in the e-mail we sent when it was delivered',
    );
    const open = (postalCode: string, proof = '') =>
      server.request(`/track?number=${number}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'proof', postalCode, ...(proof ? { proof } : {}) }),
      });
    // The postcode is public knowledge: alone, even the right one opens nothing.
    const alone = await open('BN1 1AA');
    expect(alone.status).toBe(403);
    expect(parsePage(await alone.text()).querySelectorAll('#proof img')).toHaveLength(0);

    // The delivered e-mail says when, who, where, and links the proof for the recipient.
    const listed = await server.request(
      `/api/notifications?trackingNumber=${number}&automatic=true`,
      { headers: auth },
    );
    const { notifications } = (await listed.json()) as {
      notifications: Array<{ title: string; message: string }>;
    };
    const delivered = notifications.find((n) => n.message.includes('Received by: Jane Smith'))!;
    expect(delivered.message).toMatch(
      /Delivered: \w+day, \d{1,2} \w+, \d{1,2}(:\d\d)? [ap]m [A-Z]{3}/,
    );
    expect(delivered.message).toContain('Delivered to: 9 Elm St, Boston');
    expect(delivered.message).toContain('Where it was left: handed to Jane Smith');
    const link = new URL(/https?:\/\/\S+proof=\S+#proof/.exec(delivered.message)![0]);
    const access = link.searchParams.get('proof')!;
    const { document: linked } = await server.page(`${link.pathname}${link.search}`);
    expect(linked.querySelector('#proof input[name="postalCode"]')).not.toBeNull();
    expect((await open('BN1 1AA', `${access}x`)).status).toBe(403);

    const wrong = await open('BN1 1AB', access);
    expect(wrong.status).toBe(403);
    const refused = parsePage(await wrong.text());
    expect(refused.querySelectorAll('#proof img')).toHaveLength(0);
    expect(textOf(refused.querySelector('#proof'))).toContain(
      'That postcode does not match the delivery address',
    );

    const right = await open('bn11aa', access);
    expect(right.status).toBe(200);
    const shown = parsePage(await right.text());
    expect(textOf(shown.querySelector('#proof'))).toContain('Received by Jane Smith');
    const src = shown.querySelector('#proof img[alt="Delivery photo 1"]')!.getAttribute('src')!;
    expect(src).toMatch(/^\/track\/proof\/[a-f\d]{24}\?expires=\d+&token=/);
    const photo = await server.request(src);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    // Without the signature, or with another one, nothing is served.
    expect((await server.request(src.replace(/token=[^&]+/, 'token=forged'))).status).toBe(404);
    expect((await server.request(src.split('?')[0]!)).status).toBe(404);
  });
});

describe('tracking several parcels at once', () => {
  it('more than 30 numbers get a clear message', async () => {
    const numbers = Array.from({ length: 31 }, (_, i) => `QQQ${String(i).padStart(9, '0')}`);
    const { document } = await server.page(`/track?number=${numbers.join('%0A')}`);
    expect(alertText(document)).toBe(
      'You can track up to 30 numbers at once, and 31 were entered. Please track them in smaller groups.',
    );
    expect(document.querySelectorAll('[data-tracking-summary]')).toHaveLength(0);
  });

  it('the batch API answers per number', async () => {
    const number = await createParcel();
    const res = await server.request('/api/tracking/track', {
      method: 'POST',
      headers: { Origin: 'https://shop.example' },
      json: { trackingNumbers: [number, 'ZZZ999999997'] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { results } = (await res.json()) as {
      results: Array<{ found: boolean; error?: string }>;
    };
    expect(results.map((r) => r.found)).toEqual([true, false]);
    expect(results[1]!.error).toBe('Tracking number not found');
    const empty = await server.request('/api/tracking/track', {
      method: 'POST',
      json: { trackingNumbers: [] },
    });
    expect(empty.status).toBe(400);
  });
});
