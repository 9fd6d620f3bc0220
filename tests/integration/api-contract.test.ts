import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Parcel } from '~/models/parcel.server';
import { API_ERROR_CODES } from '~/schemas/api-error-codes';
import { toApiErrorResponse } from '~/http/api.server';
import { action as depotsAction } from '~/routes/api.depots';
import {
  action as notificationsAction,
  loader as notificationsLoader,
} from '~/routes/api.notifications';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { action as parcelAction, loader as parcelLoader } from '~/routes/api.parcels.$id';
import { loader as labelLoader } from '~/routes/api.parcels.$id.label[.]pdf';
import { loader as proofsLoader } from '~/routes/api.parcels.$id.proof-of-delivery';
import { action as receiptAction } from '~/routes/api.receipts.$id';
import { action as generateAction } from '~/routes/api.receipts.generate.$parcelId';
import {
  action as eventsAction,
  loader as eventsLoader,
} from '~/routes/api.tracking.$parcelId.events';
import { action as eventAction } from '~/routes/api.tracking.events.$id';
import { connectDb } from '~/lib/db.server';
import { StaleRecordError } from '~/lib/errors.server';
import { getParcelVersioned } from '~/models/parcel-reads.server';
import { updateParcel } from '~/services/parcels.server';
import { s10CheckDigit } from '~/utils/tracking-number';
import { callRoute } from '../support/api';
import { createUsers } from '../support/factories';
import { apiError } from '../support/api-error';

let staff: Record<string, string>;
let viewer: Record<string, string>;
let admin: Record<string, string>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** `method` as staff on one record's route: `path`, then the record's id, which `param` names. */
const asStaff = (
  handler: unknown,
  method: string,
  path: string,
  [param, id]: [string, string],
  body?: unknown,
) =>
  callRoute(handler, `${path}/${encodeURIComponent(id)}`, {
    method,
    headers: staff,
    params: { [param]: id },
    body,
  });

beforeAll(async () => {
  await connectDb();
  const users = await createUsers(['staff', 'viewer', 'admin'], 'contract');
  [staff, viewer, admin] = [users.staff.auth, users.viewer.auth, users.admin.auth];
});

/** The spec's create body (§7), as its client builds it. */
const specParcel = (name: string) => ({
  sender: { name: 'Ann Sender', email: 'ann@example.com', phone: '555-0100', address: '1 A St' },
  recipient: { name, email: 'rita@example.com', phone: '555-0101', address: '2 B St' },
  destinations: [{ name, address: '2 B St', city: 'Austin', country: 'USA', postalCode: '73301' }],
  weight: 1.5,
  dimensions: { length: 10, width: 20, height: 30 },
  serviceType: 'Express',
  cost: 25.99,
  status: 'Pending',
  priority: 'High',
  estimatedDelivery: '2030-01-05T00:00:00.000Z',
});

async function createParcel(name: string) {
  const res = await callRoute(parcelsAction, '/api/parcels', {
    method: 'POST',
    headers: staff,
    body: specParcel(name),
  });
  expect(res.status).toBe(201);
  return (await res.json()).parcel as { id: string; trackingNumber: string; updatedAt: string };
}

/** A tracking event added by staff to the parcel `parcelId` names (its id or tracking number). */
const postEvent = (parcelId: string, body: Record<string, unknown>) =>
  callRoute(eventsAction, `/api/tracking/${encodeURIComponent(parcelId)}/events`, {
    method: 'POST',
    headers: staff,
    params: { parcelId },
    body,
  });

/** A notification (the spec's body) sent by staff about a parcel. */
const postNotification = (trackingNumber: string, title: string) =>
  callRoute(notificationsAction, '/api/notifications', {
    method: 'POST',
    headers: staff,
    body: {
      type: 'Custom',
      recipient: 'rita@example.com',
      title,
      message: 'It is on its way.',
      trackingNumber,
    },
  });

/** A well-formed tracking number no parcel has: with its check digit, or with a wrong one. */
function unknownNumber({ mistyped }: { mistyped: boolean }) {
  const digits = String(Date.now()).slice(-8);
  const check = s10CheckDigit(digits);
  return `ZZZ${digits}${mistyped ? (check + 1) % 10 : check}`;
}

/** Waits until the clock has passed `iso`, so that what is written next is later. */
async function after(iso: string) {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('error codes', () => {
  it('every class of error an integrator meets carries its snake_case code', async () => {
    const parcel = await createParcel('Coded Error');
    const json = { 'Content-Type': 'application/json' };
    const cases: Array<[string, () => Promise<Response>, number, string]> = [
      [
        'bad input',
        () =>
          callRoute(parcelsAction, '/api/parcels', { method: 'POST', headers: staff, body: {} }),
        400,
        'validation_failed',
      ],
      [
        'a body that is not JSON',
        () =>
          callRoute(parcelsAction, '/api/parcels', {
            method: 'POST',
            headers: { ...staff, ...json },
            body: '{oops',
          }),
        400,
        'malformed_json',
      ],
      [
        'no credential',
        () => callRoute(parcelsLoader, '/api/parcels'),
        401,
        'authentication_required',
      ],
      [
        'a role too small',
        () =>
          callRoute(parcelsAction, '/api/parcels', {
            method: 'POST',
            headers: viewer,
            body: specParcel('Not Allowed'),
          }),
        403,
        'forbidden',
      ],
      ...(
        [
          ['an unknown id', '0123456789abcdef01234567', 'not_found'],
          [
            'an unknown tracking number',
            unknownNumber({ mistyped: false }),
            'tracking_number_not_found',
          ],
          [
            'a mistyped tracking number',
            unknownNumber({ mistyped: true }),
            'tracking_number_mistyped',
          ],
        ] as const
      ).map(([what, id, code]): [string, () => Promise<Response>, number, string] => [
        what,
        () =>
          callRoute(parcelLoader, `/api/parcels/${encodeURIComponent(id)}`, {
            headers: staff,
            params: { id },
          }),
        404,
        code,
      ]),
      [
        'a method the path does not take',
        () => callRoute(parcelAction, '/api/parcels/x', { method: 'PATCH', headers: staff }),
        405,
        'method_not_allowed',
      ],
      [
        'a change the state refuses',
        async () => {
          const depot = { name: 'Contract Depot', timeZone: 'America/Chicago' };
          await callRoute(depotsAction, '/api/depots', {
            method: 'POST',
            headers: admin,
            body: depot,
          });
          return callRoute(depotsAction, '/api/depots', {
            method: 'POST',
            headers: admin,
            body: depot,
          });
        },
        409,
        'conflict',
      ],
      [
        'an Idempotency-Key used with another request',
        async () => {
          const headers = { ...staff, 'Idempotency-Key': 'contract-key-1' };
          const post = (name: string) =>
            callRoute(parcelsAction, '/api/parcels', {
              method: 'POST',
              headers,
              body: specParcel(name),
            });
          await post('Key First');
          return post('Key Second');
        },
        422,
        'idempotency_key_reused',
      ],
      [
        'a body too large',
        () =>
          callRoute(parcelsAction, '/api/parcels', {
            method: 'POST',
            headers: { ...staff, ...json },
            body: JSON.stringify({ recipient: { name: 'x'.repeat(1_100_000) } }),
          }),
        413,
        'payload_too_large',
      ],
      [
        'a body that is not JSON by its type',
        () =>
          callRoute(eventsAction, `/api/tracking/${encodeURIComponent(parcel.id)}/events`, {
            method: 'POST',
            headers: { ...staff, 'Content-Type': 'text/plain' },
            params: { parcelId: parcel.id },
            body: 'status=Delivered',
          }),
        415,
        'unsupported_media_type',
      ],
    ];
    for (const [what, request, status, code] of cases) {
      const res = await request();
      const body = await res.json();
      expect({ what, status: res.status, code: body.code }).toEqual({ what, status, code });
      expect(API_ERROR_CODES, what).toContain(body.code);
      expect(body.error, what).toBe(body.message);
    }
  });

  it('a failure on our side is a 500 with code internal_error and nothing of it shown', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = toApiErrorResponse(new Error('secret detail'));
    logged.mockRestore();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual(apiError('Internal server error', 'internal_error'));
  });

  it('every code is snake_case', () => {
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('a 401 names the Bearer scheme, and says invalid_token for a credential that is not valid', async () => {
    const none = await callRoute(parcelsLoader, '/api/parcels');
    expect(none.status).toBe(401);
    expect(none.headers.get('WWW-Authenticate')).toBe('Bearer realm="api"');

    const expired = await callRoute(parcelsLoader, '/api/parcels', {
      headers: bearer('no-such-token'),
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('WWW-Authenticate')).toMatch(
      /^Bearer realm="api", error="invalid_token", error_description="[^"]+"$/,
    );
    expect((await expired.json()).code).toBe('authentication_required');
  });
});

describe('strict input', () => {
  it('refuses an unknown field, top-level or nested, naming it, and creates nothing', async () => {
    const { priority: _priority, ...rest } = specParcel('Misspelt Field');
    const res = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: staff,
      body: { ...rest, priorty: 'High', recipient: { ...rest.recipient, nmae: 'Typo' } },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.details).sort()).toEqual(['priorty', 'recipient.nmae']);
    expect(body.details.priorty).toEqual(['Unknown field: this request does not take it']);
    expect(await Parcel.countDocuments({ 'recipient.name': 'Misspelt Field' })).toBe(0);
  });

  it('takes back the stops a parcel was answered with, their ids included, and changes only what changed', async () => {
    const parcel = await createParcel('Round Trip');
    const got = await callRoute(parcelLoader, `/api/parcels/${encodeURIComponent(parcel.id)}`, {
      headers: staff,
      params: { id: parcel.id },
    });
    const { destinations } = (await got.json()).parcel as {
      destinations: Array<Record<string, string>>;
    };
    expect(destinations[0]).toMatchObject({ id: expect.any(String), _id: expect.any(String) });
    const put = await callRoute(parcelAction, `/api/parcels/${encodeURIComponent(parcel.id)}`, {
      method: 'PUT',
      headers: staff,
      params: { id: parcel.id },
      body: { destinations: [{ ...destinations[0], city: 'Dallas' }] },
    });
    expect(put.status).toBe(200);
    const [stop] = (await put.json()).parcel.destinations;
    expect(stop).toMatchObject({ name: 'Round Trip', address: '2 B St', city: 'Dallas' });
  });

  it('takes every body the spec’s client sends (§7), its receipt object included', async () => {
    const parcel = await createParcel('Spec Client');
    expect(parcel).toMatchObject({ trackingNumber: expect.any(String) });

    const { cost: _cost, destinations: _destinations, ...update } = specParcel('Spec Client');
    const put = await asStaff(parcelAction, 'PUT', '/api/parcels', ['id', parcel.id], {
      ...update,
      status: 'In Transit',
      estimatedDelivery: undefined,
    });
    expect(put.status).toBe(200);

    const eventBody = {
      status: 'In Transit',
      location: 'Dallas, TX',
      description: 'On its way',
      timestamp: new Date().toISOString(),
    };
    const added = await postEvent(parcel.id, eventBody);
    expect(added.status).toBe(201);
    const { event } = await added.json();
    const changed = await asStaff(eventAction, 'PUT', '/api/tracking/events', ['id', event.id], {
      ...eventBody,
      description: 'Still on its way',
    });
    expect(changed.status).toBe(200);

    const sent = await postNotification(parcel.trackingNumber, 'About your parcel');
    expect(sent.status).toBe(201);

    // The receipt the client builds on its side, posted whole.
    const clientReceipt = {
      id: `receipt-${Date.now()}`,
      receiptNumber: 'RCP-2024-0001',
      trackingNumber: parcel.trackingNumber,
      customerName: 'Ann Sender',
      customerEmail: 'ann@example.com',
      amount: 25.99,
      service: 'Express',
      date: new Date().toISOString(),
      status: 'generated',
      tax: 0,
      subtotal: 25.99,
      paymentMethod: 'Credit Card',
    };
    const generated = await asStaff(
      generateAction,
      'POST',
      '/api/receipts/generate',
      ['parcelId', parcel.id],
      clientReceipt,
    );
    expect(generated.status).toBe(201);
    const { receipt } = await generated.json();
    expect(receipt.receiptNumber).not.toBe('RCP-2024-0001');
    expect(receipt.customerName).toBe('Ann Sender');

    const edited = await asStaff(receiptAction, 'PUT', '/api/receipts', ['id', receipt.id], {
      ...clientReceipt,
      customerName: 'Ann B. Sender',
    });
    expect(edited.status).toBe(200);
    const after = (await edited.json()).receipt;
    expect(after).toMatchObject({
      customerName: 'Ann B. Sender',
      receiptNumber: receipt.receiptNumber,
    });
  });
});

describe('visible limits', () => {
  it('every authenticated answer, success or error, says what is left of the budget', async () => {
    const first = await callRoute(parcelsLoader, '/api/parcels', { headers: viewer });
    const second = await callRoute(
      parcelLoader,
      `/api/parcels/${encodeURIComponent('0123456789abcdef01234567')}`,
      {
        headers: viewer,
        params: { id: '0123456789abcdef01234567' },
      },
    );
    const refused = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: viewer,
      body: specParcel('Refused'),
    });
    expect([first.status, second.status, refused.status]).toEqual([200, 404, 403]);
    const remaining = [first, second, refused].map((res) => {
      expect(Number(res.headers.get('RateLimit-Limit'))).toBeGreaterThan(0);
      expect(Number(res.headers.get('RateLimit-Reset'))).toBeGreaterThanOrEqual(0);
      expect(res.headers.get('Retry-After')).toBeNull();
      return Number(res.headers.get('RateLimit-Remaining'));
    });
    expect(remaining[1]).toBe(remaining[0]! - 1);
    expect(remaining[2]).toBe(remaining[1]! - 1);
  });
});

describe('staying in sync', () => {
  it('lists only the parcels changed since a time, oldest change first', async () => {
    const a = await createParcel('Sync A');
    const since = new Date(Date.parse(a.updatedAt) + 1).toISOString();
    await after(since);
    const b = await createParcel('Sync B');
    const list = async () => {
      const res = await callRoute(
        parcelsLoader,
        `/api/parcels?updatedSince=${encodeURIComponent(since)}&limit=100`,
        { headers: viewer },
      );
      expect(res.status).toBe(200);
      return ((await res.json()).parcels as Array<{ id: string; updatedAt: string }>).map(
        (p) => p.id,
      );
    };
    expect(await list()).toEqual([b.id]);

    const moved = await callRoute(parcelAction, `/api/parcels/${encodeURIComponent(a.id)}`, {
      method: 'PUT',
      headers: staff,
      params: { id: a.id },
      body: { priority: 'Low' },
    });
    expect(moved.status).toBe(200);
    expect(await list()).toEqual([b.id, a.id]);

    // An event added to B changes B, and B is now the latest change.
    expect((await postEvent(b.id, { status: 'Out for Delivery' })).status).toBe(201);
    expect(await list()).toEqual([a.id, b.id]);
  });

  it('lists only the events and notifications changed since a time', async () => {
    const parcel = await createParcel('Sync Events');
    const add = async (status: string) =>
      (await (await postEvent(parcel.id, { status })).json()).event as {
        id: string;
        updatedAt: string;
      };
    const notify = async (title: string) =>
      (await (await postNotification(parcel.trackingNumber, title)).json()).notification as {
        id: string;
        updatedAt: string;
      };
    const first = await add('Picked Up');
    const n1 = await notify('First');
    const since = new Date(
      Math.max(Date.parse(first.updatedAt), Date.parse(n1.updatedAt)) + 1,
    ).toISOString();
    await after(since);
    const second = await add('In Transit');
    const n2 = await notify('Second');
    const query = `updatedSince=${encodeURIComponent(since)}`;

    const events = await callRoute(
      eventsLoader,
      `/api/tracking/${encodeURIComponent(parcel.trackingNumber)}/events?${query}`,
      {
        headers: viewer,
        params: { parcelId: parcel.trackingNumber },
      },
    );
    expect((await events.json()).events.map((e: { id: string }) => e.id)).toEqual([second.id]);

    const edited = await callRoute(
      eventAction,
      `/api/tracking/events/${encodeURIComponent(first.id)}`,
      {
        method: 'PUT',
        headers: staff,
        params: { id: first.id },
        body: { description: 'Collected at the door' },
      },
    );
    const { event } = await edited.json();
    expect(Date.parse(event.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const again = await callRoute(
      eventsLoader,
      `/api/tracking/${encodeURIComponent(parcel.id)}/events?${query}`,
      {
        headers: viewer,
        params: { parcelId: parcel.id },
      },
    );
    expect((await again.json()).events.map((e: { id: string }) => e.id)).toEqual([
      second.id,
      first.id,
    ]);

    const notifications = await callRoute(
      notificationsLoader,
      `/api/notifications?${query}&automatic=false&trackingNumber=${parcel.trackingNumber}`,
      { headers: viewer },
    );
    expect((await notifications.json()).notifications.map((n: { id: string }) => n.id)).toEqual([
      n2.id,
    ]);
  });

  it('refuses an updatedSince that is not an ISO date-time, naming it', async () => {
    for (const bad of ['yesterday', '2024-13-01T00:00:00Z', '2024-12-15']) {
      const res = await callRoute(parcelsLoader, `/api/parcels?updatedSince=${bad}`, {
        headers: viewer,
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('validation_failed');
      expect(Object.keys(body.details)).toEqual(['updatedSince']);
    }
  });
});

describe('updates with If-Match', () => {
  it('change a parcel, an event or a receipt only while it is the version named: 412 once someone else changed it', async () => {
    const parcel = await createParcel('If Match');
    const event = (await (await postEvent(parcel.id, { status: 'In Transit' })).json()).event;
    const receipt = (
      await (
        await callRoute(generateAction, `/api/receipts/generate/${parcel.id}`, {
          method: 'POST',
          headers: staff,
          params: { parcelId: parcel.id },
          body: {},
        })
      ).json()
    ).receipt;
    const records = [
      [parcelAction, `/api/parcels/${parcel.id}`, parcel.id, { weight: 3 }, { weight: 4 }],
      [
        eventAction,
        `/api/tracking/events/${event.id}`,
        event.id,
        { location: 'A' },
        { location: 'B' },
      ],
      [
        receiptAction,
        `/api/receipts/${receipt.id}`,
        receipt.id,
        { paymentMethod: 'Cash' },
        { paymentMethod: 'Bank Transfer' },
      ],
    ] as const;
    for (const [route, path, id, mine, theirs] of records) {
      const read = await callRoute(route, path, { headers: viewer, params: { id } });
      const etag = read.headers.get('ETag')!;
      expect(etag).toMatch(/^W\/"/);
      const put = (body: object, ifMatch?: string) =>
        callRoute(route, path, {
          method: 'PUT',
          headers: { ...staff, ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
          params: { id },
          body,
        });
      // Someone else changes it first: the version read is stale, and nothing is overwritten.
      expect((await put(theirs)).status).toBe(200);
      const stale = await put(mine, etag);
      expect(stale.status).toBe(412);
      expect(await stale.json()).toMatchObject({ code: 'precondition_failed' });
      const now = await callRoute(route, path, { headers: viewer, params: { id } });
      const stored = Object.values(await now.json())[0] as Record<string, unknown>;
      expect(stored).toMatchObject(theirs);
      // With the ETag of the version now stored, the change is made; `*` takes any version.
      expect((await put(mine, now.headers.get('ETag')!)).status).toBe(200);
      expect((await put(theirs, '*')).status).toBe(200);
      expect((await put(mine, 'W/"not-it"')).status).toBe(412);
    }
  });

  it('refuses a write whose version changed between the check and the write', async () => {
    const parcel = await createParcel('Raced');
    const read = await getParcelVersioned(parcel.id);
    await updateParcel(parcel.id, { weight: 5 } as never);
    await expect(
      updateParcel(parcel.id, { weight: 6 } as never, undefined, { version: read!.version }),
    ).rejects.toBeInstanceOf(StaleRecordError);
    expect((await getParcelVersioned(parcel.id))!.record.weight).toBe(5);
  });
});

describe('the tracking number in place of the id', () => {
  it('reaches a parcel by its tracking number on GET, PUT, DELETE and its sub-routes', async () => {
    const parcel = await createParcel('By Number');
    const number = parcel.trackingNumber;
    const params = { id: ` ${number.toLowerCase()} ` };

    const got = await callRoute(parcelLoader, `/api/parcels/${encodeURIComponent(params.id)}`, {
      headers: viewer,
      params,
    });
    expect(got.status).toBe(200);
    expect((await got.json()).parcel.id).toBe(parcel.id);

    const put = await callRoute(parcelAction, `/api/parcels/${encodeURIComponent(number)}`, {
      method: 'PUT',
      headers: staff,
      params: { id: number },
      body: { priority: 'Express' },
    });
    expect(put.status).toBe(200);
    expect((await put.json()).parcel).toMatchObject({ id: parcel.id, priority: 'Express' });

    expect((await postEvent(number, { status: 'Picked Up' })).status).toBe(201);
    const events = await callRoute(
      eventsLoader,
      `/api/tracking/${encodeURIComponent(number)}/events`,
      {
        headers: viewer,
        params: { parcelId: number },
      },
    );
    expect((await events.json()).events).toHaveLength(1);

    const label = await callRoute(
      labelLoader,
      `/api/parcels/${encodeURIComponent(number)}/label.pdf`,
      {
        headers: viewer,
        params: { id: number },
      },
    );
    expect(label.status).toBe(200);
    expect(label.headers.get('Content-Type')).toBe('application/pdf');

    const proofs = await callRoute(
      proofsLoader,
      `/api/parcels/${encodeURIComponent(number)}/proof-of-delivery`,
      {
        headers: viewer,
        params: { id: number },
      },
    );
    expect(proofs.status).toBe(200);
    expect((await proofs.json()).proofsOfDelivery).toEqual([]);

    const receipt = await callRoute(
      generateAction,
      `/api/receipts/generate/${encodeURIComponent(number)}`,
      {
        method: 'POST',
        headers: staff,
        params: { parcelId: number },
      },
    );
    expect(receipt.status).toBe(201);
    expect((await receipt.json()).receipt.trackingNumber).toBe(number);

    const deleted = await callRoute(parcelAction, `/api/parcels/${encodeURIComponent(number)}`, {
      method: 'DELETE',
      headers: staff,
      params: { id: number },
    });
    expect(deleted.status).toBe(200);
    const gone = await callRoute(parcelLoader, `/api/parcels/${encodeURIComponent(params.id)}`, {
      headers: viewer,
      params,
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      code: 'tracking_number_not_found',
      trackingNumber: number,
    });
  });

  it('refuses what is neither an id nor a tracking number with 400 naming the parameter', async () => {
    const res = await callRoute(
      eventsLoader,
      `/api/tracking/${encodeURIComponent('not-a-parcel')}/events`,
      {
        headers: viewer,
        params: { parcelId: 'not-a-parcel' },
      },
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.details)).toEqual(['parcelId']);
  });
});
