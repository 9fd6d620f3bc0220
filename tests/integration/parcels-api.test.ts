import { beforeAll, describe, expect, it } from 'vitest';
import { Parcel, type SerializedParcel } from '~/models/parcel.server';
import { type ParcelPagination } from '~/models/parcel-reads.server';
import { action as listAction, loader as listLoader } from '~/routes/api.parcels';
import { action as itemAction, loader as itemLoader } from '~/routes/api.parcels.$id';
import { loader as parcelEventsLoader } from '~/routes/api.tracking.$parcelId.events';
import { loader as eventLoader } from '~/routes/api.tracking.events.$id';
import { connectDb } from '~/lib/db.server';
import { answer, apiRequest } from '../support/api';
import { createUser } from '../support/factories';

let token: string;
const context = { clientAddress: '10.1.2.3' };

beforeAll(async () => {
  await connectDb();
  ({ token } = await createUser('staff', { username: 'parcels-api', name: 'API User' }));
});

function request(
  path: string,
  init: { method?: string; body?: unknown; auth?: boolean; contentType?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.auth !== false) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json';
  return new Request(`http://localhost${path}`, {
    method: init.method ?? 'GET',
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
}

type ApiBody = {
  parcel: SerializedParcel;
  parcels: SerializedParcel[];
  pagination: ParcelPagination;
  error: string;
  message: string;
  details: Record<string, string[]>;
  success?: boolean;
};

async function call(
  fn: (args: never) => Promise<Response> | Response,
  req: Request,
  params: Record<string, string> = {},
): Promise<{ status: number; body: ApiBody }> {
  const res = await fn({ request: req, params, context } as never);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const list = (query = '', auth = true) =>
  call(listLoader, request(`/api/parcels${query}`, { auth }));
const create = (body: unknown, auth = true) =>
  call(listAction, request('/api/parcels', { method: 'POST', body, auth }));
const get = (id: string, auth = true) =>
  call(itemLoader, request(`/api/parcels/${id}`, { auth }), { id });
const put = (id: string, body: unknown, auth = true) =>
  call(itemAction, request(`/api/parcels/${id}`, { method: 'PUT', body, auth }), { id });
const del = (id: string, auth = true) =>
  call(itemAction, request(`/api/parcels/${id}`, { method: 'DELETE', auth }), { id });

function body(overrides: Record<string, unknown> = {}) {
  return {
    sender: {
      name: 'Ada Sender',
      email: 'ada@example.com',
      phone: '+1 555 0100',
      address: '1 Origin Rd',
    },
    recipient: {
      name: 'Bob Recipient',
      email: 'bob@example.com',
      phone: '+1 555 0200',
      address: '2 Target Ave',
    },
    destinations: [],
    weight: 2.5,
    dimensions: { length: 30, width: 20, height: 10 },
    serviceType: 'Express',
    cost: 25.99,
    status: 'Pending',
    priority: 'High',
    estimatedDelivery: '2030-01-15T12:00:00.000Z',
    ...overrides,
  };
}

const UNKNOWN_ID = '0123456789abcdef01234567';

describe('POST /api/parcels', () => {
  it('creates a Pending parcel at 25.99 with a tracking number and the recipient as the default destination', async () => {
    const { status, body: res } = await create(body());
    expect(status).toBe(201);
    const parcel = res.parcel;
    expect(parcel.trackingNumber).toMatch(/^[A-Z]{3}\d{9}$/);
    expect(parcel.id).toBe(parcel._id);
    expect(parcel.status).toBe('Pending');
    expect(parcel.cost).toBe(25.99);
    expect(parcel.weight).toBe(2.5);
    expect(parcel.dimensions).toEqual({ length: 30, width: 20, height: 10 });
    expect(parcel.serviceType).toBe('Express');
    expect(parcel.priority).toBe('High');
    expect(parcel.estimatedDelivery).toBe('2030-01-15T12:00:00.000Z');
    expect(parcel.destinations).toHaveLength(1);
    expect(parcel.destinations[0]).toMatchObject({
      name: 'Bob Recipient',
      address: '2 Target Ave',
      country: 'USA',
    });
    const stored = await Parcel.findById(parcel.id).lean();
    expect(stored?.trackingNumber).toBe(parcel.trackingNumber);
  });

  it('ignores a status or cost in the body and defaults the estimated delivery to four days ahead', async () => {
    const before = Date.now();
    const { status, body: res } = await create(
      body({ status: 'Delivered', cost: 1, estimatedDelivery: undefined }),
    );
    expect(status).toBe(201);
    expect(res.parcel.status).toBe('Pending');
    expect(res.parcel.cost).toBe(25.99);
    const eta = new Date(res.parcel.estimatedDelivery!).getTime();
    expect(eta).toBeGreaterThanOrEqual(before + 4 * 86_400_000 - 1000);
    expect(eta).toBeLessThanOrEqual(Date.now() + 4 * 86_400_000 + 1000);
  });

  it('keeps the destinations given, defaulting the country to USA', async () => {
    const { status, body: res } = await create(
      body({
        destinations: [
          { name: 'Stop A', address: '3 First St', city: 'Boston', postalCode: '02101' },
          {
            name: 'Stop B',
            address: '4 Second St',
            city: 'Paris',
            country: 'France',
            postalCode: '75001',
          },
        ],
      }),
    );
    expect(status).toBe(201);
    expect(res.parcel.destinations.map((d) => [d.name, d.country])).toEqual([
      ['Stop A', 'USA'],
      ['Stop B', 'France'],
    ]);
  });

  it('refuses bad bodies with per-field details and stores nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [body({ weight: 'heavy' }), 'weight'],
      [body({ weight: -1 }), 'weight'],
      [body({ dimensions: { length: '10', width: 1, height: 1 } }), 'dimensions.length'],
      [body({ serviceType: 'Teleport' }), 'serviceType'],
      [body({ priority: 'Urgent' }), 'priority'],
      [body({ estimatedDelivery: 'next tuesday' }), 'estimatedDelivery'],
      [body({ recipient: { name: { $gt: '' }, address: '2 Target Ave' } }), 'recipient.name'],
      [body({ sender: { name: 'A', email: 'not-an-email' } }), 'sender.email'],
      [body({ recipient: { name: '', address: '' } }), 'recipient.name'],
      [body({ recipient: undefined }), 'recipient'],
      [body({ destinations: [{ name: 'X', city: { $ne: null } }] }), 'destinations.0.city'],
      [body({ destinations: 'everywhere' }), 'destinations'],
    ];
    const countBefore = await Parcel.countDocuments();
    for (const [payload, field] of cases) {
      const { status, body: res } = await create(payload);
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(res.error).toBe('Validation failed');
      expect(res.message).toBe('Validation failed');
      expect(Object.keys(res.details), JSON.stringify(payload)).toContain(field);
    }
    expect(await Parcel.countDocuments()).toBe(countBefore);
  });

  it('refuses non-JSON and malformed JSON', async () => {
    const countBefore = await Parcel.countDocuments();
    const form = await call(
      listAction,
      request('/api/parcels', {
        method: 'POST',
        body: 'weight=1',
        contentType: 'application/x-www-form-urlencoded',
      }),
    );
    expect(form.status).toBe(415);
    const broken = await call(
      listAction,
      request('/api/parcels', { method: 'POST', body: '{"recipient":' }),
    );
    expect(broken.status).toBe(400);
    expect(await Parcel.countDocuments()).toBe(countBefore);
  });

  it('requires authentication', async () => {
    const countBefore = await Parcel.countDocuments();
    const res = await create(body(), false);
    expect(res.status).toBe(401);
    expect(res.body.error).toBeTruthy();
    const bad = await call(
      listAction,
      new Request('http://localhost/api/parcels', {
        method: 'POST',
        headers: { Authorization: 'Bearer not-a-token', 'Content-Type': 'application/json' },
        body: JSON.stringify(body()),
      }),
    );
    expect(bad.status).toBe(401);
    expect(await Parcel.countDocuments()).toBe(countBefore);
  });
});

describe('the delivery window', () => {
  const window = (from: string, until: string) => ({ deliveryWindow: { from, until } });
  const send = async (
    handler: typeof listAction,
    url: string,
    method: string,
    payload: unknown,
  ) => {
    const res = await answer(handler, apiRequest(url, { token }, { method, body: payload }), {
      id: url.split('/')[3] ?? '',
    });
    return { status: res.status, body: (await res.json()) as ApiBody & { code: string } };
  };

  it('is set on the estimated day in any zone, cleared by null or by a new day, and refused naming the field', async () => {
    const created = await send(listAction, '/api/parcels', 'POST', {
      ...body({ estimatedDelivery: '2030-07-02' }),
      ...window('2030-07-02T14:00:00-04:00', '2030-07-02T20:00:00Z'),
    });
    expect(created.status).toBe(201);
    const { id } = created.body.parcel;
    expect(created.body.parcel.deliveryWindow).toEqual({
      from: '2030-07-02T18:00:00.000Z',
      until: '2030-07-02T20:00:00.000Z',
    });
    const url = `/api/parcels/${id}`;

    const cases: Array<[unknown, string]> = [
      [{ deliveryWindow: { from: '2030-07-02T14:00:00Z' } }, 'deliveryWindow.until'],
      [window('2 pm', '2030-07-02T20:00:00Z'), 'deliveryWindow.from'],
      [window('2030-07-02T14:00:00', '2030-07-02T20:00:00Z'), 'deliveryWindow.from'],
      [window('2030-07-02T20:00:00Z', '2030-07-02T14:00:00Z'), 'deliveryWindow.until'],
      // 2 am UTC on the 3rd is still the 2nd in New York; the 3rd's morning is not.
      [window('2030-07-03T02:00:00Z', '2030-07-03T16:00:00Z'), 'deliveryWindow'],
      [
        {
          estimatedDelivery: '2030-07-05',
          ...window('2030-07-02T14:00:00Z', '2030-07-02T16:00:00Z'),
        },
        'deliveryWindow',
      ],
    ];
    for (const [payload, field] of cases) {
      const refused = await send(itemAction, url, 'PUT', payload);
      expect(refused.status, JSON.stringify(payload)).toBe(400);
      expect(refused.body.code).toBe('validation_failed');
      expect(Object.keys(refused.body.details), JSON.stringify(payload)).toEqual([field]);
    }
    expect((await get(id)).body.parcel.deliveryWindow?.from).toBe('2030-07-02T18:00:00.000Z');

    const moved = await send(itemAction, url, 'PUT', { estimatedDelivery: '2030-07-03' });
    expect(moved.body.parcel.deliveryWindow).toBeNull();
    const set = await send(
      itemAction,
      url,
      'PUT',
      window('2030-07-03T09:00:00-04:00', '2030-07-03T11:00:00-04:00'),
    );
    expect(set.body.parcel.deliveryWindow).toEqual({
      from: '2030-07-03T13:00:00.000Z',
      until: '2030-07-03T15:00:00.000Z',
    });
    const cleared = await send(itemAction, url, 'PUT', { deliveryWindow: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.parcel.deliveryWindow).toBeNull();
  });
});

describe('GET /api/parcels', () => {
  const tag = `Q${Date.now().toString(36)}`;

  beforeAll(async () => {
    // Names with regex characters: a search must match them literally.
    await create(
      body({ sender: { name: `${tag} a.c (x)` }, recipient: { name: `${tag} R1`, address: 'x' } }),
    );
    await create(
      body({ sender: { name: `${tag} abc` }, recipient: { name: `${tag} R2`, address: 'x' } }),
    );
    for (let i = 0; i < 3; i++) {
      await create(
        body({
          sender: { name: `${tag} page ${i}` },
          recipient: { name: `${tag} pager`, address: 'x' },
        }),
      );
    }
  });

  it('lists parcels newest first with pagination figures', async () => {
    const { status, body: res } = await list(
      `?search=${encodeURIComponent(`${tag} page`)}&limit=2&page=1`,
    );
    expect(status).toBe(200);
    expect(res.pagination).toEqual({ totalItems: 3, currentPage: 1, totalPages: 2, limit: 2 });
    expect(res.parcels.map((p) => p.sender.name)).toEqual([`${tag} page 2`, `${tag} page 1`]);
    const second = await list(`?search=${encodeURIComponent(`${tag} page`)}&limit=2&page=2`);
    expect(second.body.parcels.map((p) => p.sender.name)).toEqual([`${tag} page 0`]);
    expect(second.body.pagination.currentPage).toBe(2);
  });

  it('defaults to page 1 and 100 per page', async () => {
    const { status, body: res } = await list();
    expect(status).toBe(200);
    expect(res.pagination.currentPage).toBe(1);
    expect(res.pagination.limit).toBe(100);
    expect(res.pagination.totalItems).toBe(await Parcel.countDocuments());
  });

  it('searches case-insensitively and literally on tracking number, sender and recipient', async () => {
    const literal = await list(`?search=${encodeURIComponent(`${tag} A.C (X)`)}`);
    expect(literal.body.parcels.map((p) => p.sender.name)).toEqual([`${tag} a.c (x)`]);
    // 'a.c' as a regex would also match 'abc'.
    const dot = await list(`?search=${encodeURIComponent(`${tag} a.c`)}`);
    expect(dot.body.parcels).toHaveLength(1);
    const star = await list(`?search=${encodeURIComponent('.*')}`);
    expect(star.status).toBe(200);
    expect(star.body.parcels).toHaveLength(0);
    const byRecipient = await list(`?search=${encodeURIComponent(`${tag} r2`.toLowerCase())}`);
    expect(byRecipient.body.parcels.map((p) => p.recipient.name)).toEqual([`${tag} R2`]);
    const tn = byRecipient.body.parcels[0].trackingNumber as string;
    const byNumber = await list(`?search=${tn.toLowerCase()}`);
    expect(byNumber.body.parcels.map((p) => p.trackingNumber)).toEqual([tn]);
    // Part of a number, letters and digits together, in any case.
    const byPart = await list(`?search=${tn.slice(1, 8).toLowerCase()}`);
    expect(byPart.body.parcels.map((p) => p.trackingNumber)).toContain(tn);
  });

  it('filters by status', async () => {
    const created = await create(body({ recipient: { name: `${tag} delivered`, address: 'x' } }));
    await put(created.body.parcel.id, { status: 'Delivered' });
    const delivered = await list(`?status=Delivered&search=${encodeURIComponent(tag)}`);
    expect(delivered.body.parcels.map((p) => p.recipient.name)).toEqual([`${tag} delivered`]);
    const pending = await list(`?status=Pending&search=${encodeURIComponent(tag)}`);
    expect(pending.body.parcels).toHaveLength(5);
    expect(pending.body.parcels.every((p) => p.status === 'Pending')).toBe(true);
    const all = await list(`?status=&search=${encodeURIComponent(tag)}`);
    expect(all.body.parcels).toHaveLength(6);
  });

  it('refuses bad queries', async () => {
    for (const query of [
      '?limit=101',
      '?limit=0',
      '?page=0',
      '?page=abc',
      '?status=Lost',
      `?search=${'x'.repeat(101)}`,
    ]) {
      const { status, body: res } = await list(query);
      expect(status, query).toBe(400);
      expect(res.details, query).toBeTruthy();
    }
    const maxLimit = await list('?limit=100');
    expect(maxLimit.status).toBe(200);
  });

  it('requires authentication', async () => {
    expect((await list('', false)).status).toBe(401);
  });
});

describe('/api/parcels/:id', () => {
  it('gets a parcel with its events, 404 for an unknown id and 400 for a malformed one', async () => {
    const created = (await create(body())).body.parcel;
    const { status, body: res } = await get(created.id);
    expect(status).toBe(200);
    expect(res.parcel).toMatchObject({
      id: created.id,
      _id: created.id,
      trackingNumber: created.trackingNumber,
      events: [],
    });
    expect((await get(UNKNOWN_ID)).status).toBe(404);
    expect((await get(UNKNOWN_ID)).body.message).toBe('Parcel not found');
    expect((await get('not-an-id')).status).toBe(400);
    expect((await get(created.id, false)).status).toBe(401);
  });

  it('updates only the fields given; Delivered records the delivery time', async () => {
    const created = (await create(body())).body.parcel;
    const { status, body: res } = await put(created.id, {
      status: 'Delivered',
      recipient: { phone: '+1 555 0999' },
      weight: 4,
      estimatedDelivery: '2031-02-03',
    });
    expect(status).toBe(200);
    expect(res.parcel.status).toBe('Delivered');
    expect(res.parcel.actualDelivery).toBeTruthy();
    expect(res.parcel.recipient).toEqual({ ...created.recipient, phone: '+1 555 0999' });
    expect(res.parcel.weight).toBe(4);
    expect(res.parcel.estimatedDelivery).toBe('2031-02-03T00:00:00.000Z');
    expect(res.parcel.sender).toEqual(created.sender);
    expect(res.parcel.cost).toBe(25.99);

    // Saving Delivered again keeps the first delivery time.
    const again = await put(created.id, { status: 'Delivered' });
    expect(again.body.parcel.actualDelivery).toBe(res.parcel.actualDelivery);

    const back = await put(created.id, { status: 'In Transit' });
    expect(back.body.parcel.status).toBe('In Transit');
    expect(back.body.parcel.actualDelivery).toBeNull();
    expect((await get(created.id)).body.parcel.status).toBe('In Transit');
  });

  it('an empty destination list becomes the recipient, as on the edit page', async () => {
    const created = (
      await create(body({ destinations: [{ name: 'Depot', address: '9 Depot Rd', city: 'Reno' }] }))
    ).body.parcel;
    expect(created.destinations.map((d) => d.name)).toEqual(['Depot']);

    // Only the destinations sent: the stored recipient is the default.
    const cleared = await put(created.id, { destinations: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.parcel.destinations).toMatchObject([
      { name: 'Bob Recipient', address: '2 Target Ave', city: '', country: 'USA', postalCode: '' },
    ]);

    // With a new recipient in the same body: the new one.
    const moved = await put(created.id, {
      recipient: { name: 'Cleo New', address: '5 Other St' },
      destinations: [{ name: '', address: '', city: '', postalCode: '' }],
    });
    expect(moved.body.parcel.destinations).toMatchObject([
      { name: 'Cleo New', address: '5 Other St', country: 'USA' },
    ]);
    expect((await get(created.id)).body.parcel.destinations).toHaveLength(1);

    // Destinations not sent stay as they are.
    const kept = await put(created.id, { weight: 7 });
    expect(kept.body.parcel.destinations).toMatchObject([{ name: 'Cleo New' }]);
  });

  it('refuses bad updates with details and changes nothing', async () => {
    const created = (await create(body())).body.parcel;
    const cases: Array<[unknown, string]> = [
      [{ status: 'Lost' }, 'status'],
      [{ status: { $gt: '' } }, 'status'],
      [{ weight: 'heavy' }, 'weight'],
      [{ recipient: { name: '' } }, 'recipient.name'],
      [{ sender: { email: { $gt: '' } } }, 'sender.email'],
      [{ estimatedDelivery: 12 }, 'estimatedDelivery'],
      [{ status: 'Delivered', priority: 'Whenever' }, 'priority'],
    ];
    for (const [payload, field] of cases) {
      const { status, body: res } = await put(created.id, payload);
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.details), JSON.stringify(payload)).toContain(field);
    }
    const after = (await get(created.id)).body.parcel;
    expect(after).toEqual(created);
    expect((await put('nope', { status: 'Pending' })).status).toBe(400);
    expect((await put(UNKNOWN_ID, { status: 'Pending' })).status).toBe(404);
    expect((await put(created.id, { status: 'Delivered' }, false)).status).toBe(401);
    expect((await get(created.id)).body.parcel.status).toBe('Pending');
  });

  it('deletes a parcel with its tracking events', async () => {
    const created = (await create(body())).body.parcel;
    await Parcel.updateOne(
      { _id: created.id },
      {
        $push: {
          events: {
            status: 'In Transit',
            location: 'Hub',
            description: 'On its way',
            timestamp: new Date(),
          },
        },
      },
    );
    const [event] = (await get(created.id)).body.parcel.events ?? [];
    expect(event).toBeDefined();
    const getEvent = () =>
      call(eventLoader, request(`/api/tracking/events/${event!.id}`), { id: event!.id });
    const listEvents = () =>
      call(parcelEventsLoader, request(`/api/tracking/${created.id}/events`), {
        parcelId: created.id,
      });
    expect((await getEvent()).status).toBe(200);
    expect((await listEvents()).status).toBe(200);

    expect((await del(created.id, false)).status).toBe(401);
    expect(await Parcel.countDocuments({ _id: created.id })).toBe(1);

    const { status, body: res } = await del(created.id);
    expect(status).toBe(200);
    expect(res).toEqual({ success: true, message: `Parcel ${created.trackingNumber} deleted` });
    expect(await Parcel.countDocuments({ _id: created.id })).toBe(0);
    // The event went with its parcel: it is no longer found by its own id, nor listed.
    expect((await getEvent()).status).toBe(404);
    expect((await listEvents()).status).toBe(404);
    expect((await get(created.id)).status).toBe(404);
    expect((await del(created.id)).status).toBe(404);
    expect((await del('123')).status).toBe(400);
  });

  it('answers 405 for other methods', async () => {
    const res = await call(
      itemAction,
      request(`/api/parcels/${UNKNOWN_ID}`, { method: 'POST', body: {} }),
      { id: UNKNOWN_ID },
    );
    expect(res.status).toBe(405);
  });
});
