import mongoose from 'mongoose';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryFactsOf, isoWeekOf } from '~/lib/delivery-facts.server';
import { env } from '~/lib/env.server';
import { refreshDeliveryFacts } from '~/models/parcel-delivery-facts.server';
import {
  importedParcelDocument,
  insertImportedParcels,
  updateParcelFields,
  type ParcelFieldChanges,
} from '~/models/parcel-writes.server';
import { Parcel, type LeanParcel } from '~/models/parcel.server';
import { listEvents, pullEvent, pushEvent, setEventFields } from '~/models/tracking-event.server';
import { deleteEvent, updateEvent } from '~/services/tracking-events.server';
import { EVENT_STATUSES, EVENT_TO_PARCEL_STATUS } from '~/schemas/constants';
import { TrackingEventFormSchema } from '~/schemas/tracking-event';
import { connectDb } from '~/lib/db.server';
import { loader as tabLoader } from '~/routes/dashboard.tracking';
import { loader as parcelPageLoader } from '~/routes/dashboard.tracking.$parcelId';
import {
  action as addPageAction,
  loader as addPageLoader,
} from '~/routes/dashboard.tracking.$parcelId.events.new';
import {
  action as editPageAction,
  loader as editPageLoader,
} from '~/routes/dashboard.tracking.$parcelId.events.$eventId.edit';
import {
  action as deletePageAction,
  loader as deletePageLoader,
} from '~/routes/dashboard.tracking.$parcelId.events.$eventId.delete';
import {
  action as eventsAction,
  loader as eventsLoader,
} from '~/routes/api.tracking.$parcelId.events';
import { action as eventAction, loader as eventLoader } from '~/routes/api.tracking.events.$id';
import { createEvent, createParcel, createUser, parcelInput } from '../support/factories';
import { apiError } from '../support/api-error';

const context = { clientAddress: '10.1.2.3' };
const MISSING_ID = '0123456789abcdef01234567';
let token = '';
let sessionCookie = '';

beforeAll(async () => {
  await connectDb();
  ({ token, cookie: sessionCookie } = await createUser('staff', { username: 'tracker' }));
});

async function newParcelId() {
  return (await createParcel()).id;
}

async function storedParcel(id: string) {
  const parcel = await Parcel.findById(id).lean();
  if (!parcel) throw new Error('parcel vanished');
  return parcel;
}

/** The parcel's stored status, and its delivery date (null where it has none). */
async function expectParcel(id: string, status: string, actualDelivery: string | null) {
  const stored = await storedParcel(id);
  expect(stored.status).toBe(status);
  expect(stored.actualDelivery?.toISOString() ?? null).toBe(actualDelivery);
}

function request(
  path: string,
  init: { method?: string; body?: unknown; auth?: string | null; raw?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.auth !== null) headers.Authorization = `Bearer ${init.auth ?? token}`;
  let body: string | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return new Request(`http://localhost${path}`, { method: init.method ?? 'GET', headers, body });
}

function call(
  fn: (args: never) => Promise<Response>,
  req: Request,
  params: Record<string, string>,
) {
  return fn({ request: req, params, context } as never);
}

const listCall = (parcelId: string, auth?: string | null) =>
  call(eventsLoader, request(`/api/tracking/${parcelId}/events`, { auth }), { parcelId });
/** Posts an event that must be added (201), and answers it. */
async function addedEvent(parcelId: string, body: unknown) {
  const res = await postCall(parcelId, body);
  expect(res.status).toBe(201);
  return (await res.json()).event;
}

const postCall = (
  parcelId: string,
  body: unknown,
  opts: { auth?: string | null; raw?: string } = {},
) =>
  call(
    eventsAction,
    request(`/api/tracking/${parcelId}/events`, { method: 'POST', body, ...opts }),
    { parcelId },
  );
const putCall = (id: string, body: unknown, opts: { auth?: string | null; raw?: string } = {}) =>
  call(eventAction, request(`/api/tracking/events/${id}`, { method: 'PUT', body, ...opts }), {
    id,
  });
const deleteCall = (id: string, auth?: string | null) =>
  call(eventAction, request(`/api/tracking/events/${id}`, { method: 'DELETE', auth }), { id });

describe('GET /api/tracking/:parcelId/events', () => {
  it('lists the events newest first by timestamp, even when added out of order', async () => {
    const parcelId = await newParcelId();
    await postCall(parcelId, {
      status: 'In Transit',
      location: 'Chicago',
      timestamp: '2024-12-02T10:00:00Z',
    });
    await postCall(parcelId, {
      status: 'Package Picked Up',
      location: 'Denver',
      timestamp: '2024-12-01T10:00:00Z',
    });
    await postCall(parcelId, {
      status: 'Out for Delivery',
      location: 'Boston',
      timestamp: '2024-12-03T08:00:00Z',
    });
    const res = await listCall(parcelId);
    expect(res.status).toBe(200);
    const { events } = await res.json();
    expect(events.map((e: { location: string }) => e.location)).toEqual([
      'Boston',
      'Chicago',
      'Denver',
    ]);
    expect(events[0]).toMatchObject({
      status: 'Out for Delivery',
      location: 'Boston',
      description: '',
      timestamp: '2024-12-03T08:00:00.000Z',
      parcelId,
    });
    expect(events[0].id).toBe(events[0]._id);
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');
  });

  it('answers 401 without a token or with a bad one', async () => {
    const parcelId = await newParcelId();
    const res = await listCall(parcelId, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });
    expect((await listCall(parcelId, 'not-a-real-token')).status).toBe(401);
  });

  it('answers 400 for a malformed parcel id and 404 for an unknown one', async () => {
    const bad = await listCall('not-an-id');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/invalid parcel id/i);
    const missing = await listCall(MISSING_ID);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(apiError('Parcel not found', 'not_found'));
  });
});

describe('POST /api/tracking/:parcelId/events', () => {
  it('creates an event (201) and defaults the timestamp to now', async () => {
    const parcelId = await newParcelId();
    const before = Date.now();
    const event = await addedEvent(parcelId, {
      status: 'Departed Facility',
      location: 'Memphis Hub',
      description: 'Left hub',
    });
    expect(event).toMatchObject({
      status: 'Departed Facility',
      location: 'Memphis Hub',
      description: 'Left hub',
      parcelId,
    });
    expect(event.id).toMatch(/^[a-f\d]{24}$/);
    const at = new Date(event.timestamp).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    const stored = await storedParcel(parcelId);
    expect(stored.events).toHaveLength(1);
    expect(stored.status).toBe('In Transit');
  });

  it("keeps the time zone of the place, defaulting to the company's; timestamps stay UTC", async () => {
    const parcelId = await newParcelId();
    const event = await addedEvent(parcelId, {
      status: 'Arrived at Facility',
      location: 'Tokyo Hub',
      timestamp: '2026-11-22T15:15:00+09:00',
      timeZone: 'Asia/Tokyo',
    });
    expect(event).toMatchObject({
      timestamp: '2026-11-22T06:15:00.000Z',
      timeZone: 'Asia/Tokyo',
    });
    const plain = await (await postCall(parcelId, { status: 'In Transit' })).json();
    expect(plain.event.timeZone).toBe('America/New_York');
    // An event stored before zones were kept counts as the company's.
    await Parcel.updateOne({ _id: parcelId }, { $unset: { 'events.0.timeZone': 1 } });
    const listed = await (await listCall(parcelId)).json();
    expect(listed.events.map((e: { timeZone: string }) => e.timeZone).sort()).toEqual([
      'America/New_York',
      'Asia/Tokyo',
    ]);
    // PUT changes the zone alone.
    const moved = await putCall(event.id, { timeZone: 'Europe/London' });
    expect((await moved.json()).event).toMatchObject({
      timeZone: 'Europe/London',
      timestamp: '2026-11-22T06:15:00.000Z',
    });
  });

  it('answers 401 without auth and stores nothing', async () => {
    const parcelId = await newParcelId();
    const res = await postCall(parcelId, { status: 'Delivered' }, { auth: null });
    expect(res.status).toBe(401);
    const stored = await storedParcel(parcelId);
    expect(stored.events).toHaveLength(0);
    expect(stored.status).toBe('Pending');
  });

  it.each([
    ['missing status', { location: 'X' }, 'status'],
    ['empty status', { status: '   ' }, 'status'],
    ['operator object as status', { status: { $gt: '' } }, 'status'],
    ['operator object as location', { status: 'Delivered', location: { $ne: null } }, 'location'],
    ['too long location', { status: 'Delivered', location: 'x'.repeat(201) }, 'location'],
    ['too long description', { status: 'Delivered', description: 'x'.repeat(1001) }, 'description'],
    ['too long status', { status: 'x'.repeat(101) }, 'status'],
    ['bad timestamp', { status: 'Delivered', timestamp: 'yesterday' }, 'timestamp'],
    ['numeric timestamp', { status: 'Delivered', timestamp: 1733000000000 }, 'timestamp'],
    ['unknown time zone', { status: 'Delivered', timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
    ['numeric time zone', { status: 'Delivered', timeZone: -5 }, 'timeZone'],
  ])('answers 400 with details for %s and stores nothing', async (_name, body, field) => {
    const parcelId = await newParcelId();
    const res = await postCall(parcelId, body);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toBe('Validation failed');
    expect(json.details[field]).toEqual([expect.any(String)]);
    const stored = await storedParcel(parcelId);
    expect(stored.events).toHaveLength(0);
    expect(stored.status).toBe('Pending');
  });

  it('answers 400 for a body that is not JSON, 415 for a non-JSON content type', async () => {
    const parcelId = await newParcelId();
    expect((await postCall(parcelId, undefined, { raw: '{"status": ' })).status).toBe(400);
    const res = await eventsAction({
      request: new Request(`http://localhost/api/tracking/${parcelId}/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
        body: 'status=Delivered',
      }),
      params: { parcelId },
      context,
    } as never);
    expect(res.status).toBe(415);
    expect((await storedParcel(parcelId)).events).toHaveLength(0);
  });

  it('answers 400 for a malformed parcel id and 404 for an unknown one', async () => {
    expect((await postCall('123', { status: 'Delivered' })).status).toBe(400);
    const res = await postCall(MISSING_ID, { status: 'Delivered' });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('Parcel not found');
  });

  it('lands all of 10 concurrent adds to one parcel', async () => {
    const parcelId = await newParcelId();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postCall(parcelId, {
          status: i === 9 ? 'Delivered' : 'In Transit',
          location: `Stop ${i}`,
          timestamp: new Date(Date.UTC(2024, 11, 1, i)).toISOString(),
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const events = (await listEvents(parcelId))!.events;
    expect(events).toHaveLength(10);
    expect(events.map((e) => e.location)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Stop ${9 - i}`),
    );
    await expectParcel(parcelId, 'Delivered', '2024-12-01T09:00:00.000Z');
  });
});

describe('parcel status follows the newest event', () => {
  const mapped = EVENT_STATUSES.filter((s) => s !== 'Custom Status');

  it.each(mapped.map((status) => [status, EVENT_TO_PARCEL_STATUS[status]]))(
    '%s sets the parcel to %s',
    async (eventStatus, parcelStatus) => {
      const parcelId = await newParcelId();
      const res = await postCall(parcelId, {
        status: eventStatus,
        timestamp: '2024-12-05T12:00:00Z',
        ...(eventStatus === 'Failed Delivery' ? { reason: 'weather' } : {}),
      });
      expect(res.status).toBe(201);
      const deliveredAt = parcelStatus === 'Delivered' ? '2024-12-05T12:00:00.000Z' : null;
      await expectParcel(parcelId, parcelStatus, deliveredAt);
    },
  );

  it('a Custom Status leaves the status unchanged; a status off the list is refused, naming the list', async () => {
    const parcelId = await newParcelId();
    await postCall(parcelId, { status: 'Out for Delivery', timestamp: '2024-12-01T08:00:00Z' });
    await postCall(parcelId, { status: 'Custom Status', timestamp: '2024-12-01T09:00:00Z' });
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');
    const res = await postCall(parcelId, {
      status: 'Custom Status',
      customStatus: 'Held at customs',
      timestamp: '2024-12-01T10:00:00Z',
    });
    expect((await res.json()).event).toMatchObject({
      status: 'Custom Status',
      customStatus: 'Held at customs',
    });
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');

    // A typo is not a custom status: it is refused and changes nothing.
    for (const status of ['Deliverd', 'Held at customs', 'delivered', '']) {
      const typo = await postCall(parcelId, { status });
      expect(typo.status).toBe(400);
      expect((await typo.json()).details).toEqual({
        status: [`Status must be one of: ${EVENT_STATUSES.join(', ')}`],
      });
    }
    const words = await postCall(parcelId, { status: 'Delivered', customStatus: 'Left it' });
    expect(words.status).toBe(400);
    expect((await words.json()).details).toEqual({
      customStatus: ['Only a Custom Status has a customStatus'],
    });
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');
    expect((await listEvents(parcelId))!.events).toHaveLength(3);
  });

  it('an older event does not override the newest one', async () => {
    const parcelId = await newParcelId();
    await postCall(parcelId, { status: 'Out for Delivery', timestamp: '2024-12-03T08:00:00Z' });
    await postCall(parcelId, { status: 'Package Picked Up', timestamp: '2024-12-01T08:00:00Z' });
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');
  });

  it('deleting the newest event moves the status back to the previous event; with none left it is Pending', async () => {
    const parcelId = await newParcelId();
    const first = (
      await (
        await postCall(parcelId, { status: 'In Transit', timestamp: '2024-12-01T08:00:00Z' })
      ).json()
    ).event;
    const second = (
      await (
        await postCall(parcelId, { status: 'Delivered', timestamp: '2024-12-02T08:00:00Z' })
      ).json()
    ).event;
    expect((await storedParcel(parcelId)).status).toBe('Delivered');

    const res = await deleteCall(second.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: 'Tracking event deleted' });
    await expectParcel(parcelId, 'In Transit', null);

    expect((await deleteCall(first.id)).status).toBe(200);
    const stored = await storedParcel(parcelId);
    expect(stored.events).toHaveLength(0);
    expect(stored.status).toBe('Pending');
  });

  it('deleting a mistaken Delivered skips Custom Status events and clears the delivery date', async () => {
    const parcelId = await newParcelId();
    await postCall(parcelId, { status: 'In Transit', timestamp: '2024-12-01T08:00:00Z' });
    const delivered = (
      await (
        await postCall(parcelId, { status: 'Delivered', timestamp: '2024-12-02T08:00:00Z' })
      ).json()
    ).event;
    await postCall(parcelId, { status: 'Held at customs', timestamp: '2024-12-03T08:00:00Z' });
    await expectParcel(parcelId, 'Delivered', '2024-12-02T08:00:00.000Z');

    expect((await deleteCall(delivered.id)).status).toBe(200);
    await expectParcel(parcelId, 'In Transit', null);
  });

  it('deleting the only Delivered event, with only Custom Status events left, makes the parcel Pending', async () => {
    const parcelId = await newParcelId();
    const delivered = await createEvent(parcelId, 'Delivered', { at: '2024-12-01T08:00:00Z' });
    const note = await createEvent(parcelId, 'Left with neighbour', { at: '2024-12-02T08:00:00Z' });
    expect((await storedParcel(parcelId)).status).toBe('Delivered');
    await deleteEvent(delivered.id);
    await expectParcel(parcelId, 'Pending', null);

    // Removing a Custom Status event leaves a status set by hand alone.
    await Parcel.updateOne({ _id: parcelId }, { $set: { status: 'Failed' } });
    await deleteEvent(note.id);
    expect((await storedParcel(parcelId)).status).toBe('Failed');
  });

  it('editing Delivered into another status moves the parcel and clears the delivery date', async () => {
    const parcelId = await newParcelId();
    await createEvent(parcelId, 'In Transit', { at: '2024-12-01T08:00:00Z' });
    const delivered = await createEvent(parcelId, 'Delivered', { at: '2024-12-02T08:00:00Z' });
    const edited = await updateEvent(delivered.id, { status: 'Failed Delivery' });
    expect(edited?.status).toBe('Failed Delivery');
    await expectParcel(parcelId, 'Failed', null);

    // Into a custom status: the newest mapped event left decides.
    await updateEvent(delivered.id, {
      status: 'Custom Status',
      customStatus: 'Awaiting pickup point',
    });
    await expectParcel(parcelId, 'In Transit', null);
  });

  it('editing an event re-evaluates which one is newest', async () => {
    const parcelId = await newParcelId();
    const old = await createEvent(parcelId, 'Delivered', { at: '2024-12-01T08:00:00Z' });
    await createEvent(parcelId, 'In Transit', { at: '2024-12-02T08:00:00Z' });
    expect((await storedParcel(parcelId)).status).toBe('In Transit');
    await updateEvent(old.id, { timestamp: new Date('2024-12-03T08:00:00Z') });
    await expectParcel(parcelId, 'Delivered', '2024-12-03T08:00:00.000Z');
    expect((await listEvents(parcelId))!.events.map((e) => e.status)).toEqual([
      'Delivered',
      'In Transit',
    ]);
  });
});

describe('GET/PUT/DELETE /api/tracking/events/:id', () => {
  it('reads one event with its parcel id', async () => {
    const parcelId = await newParcelId();
    const created = await createEvent(parcelId, 'In Transit', { location: 'Reno' });
    const res = await call(eventLoader, request(`/api/tracking/events/${created.id}`), {
      id: created.id,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).event).toMatchObject({
      id: created.id,
      status: 'In Transit',
      location: 'Reno',
      parcelId,
    });
    expect(
      (await call(eventLoader, request(`/api/tracking/events/${MISSING_ID}`), { id: MISSING_ID }))
        .status,
    ).toBe(404);
  });

  it('updates only the fields sent and moves the parcel status', async () => {
    const parcelId = await newParcelId();
    const created = await createEvent(parcelId, 'Out for Delivery', {
      location: 'Austin',
      description: 'On the van',
      at: '2024-12-04T07:00:00Z',
    });
    const res = await putCall(created.id, {
      status: 'Delivered',
      description: 'Left at front door',
    });
    expect(res.status).toBe(200);
    const { event } = await res.json();
    expect(event).toEqual({
      id: created.id,
      _id: created.id,
      parcelId,
      status: 'Delivered',
      customStatus: null,
      location: 'Austin',
      description: 'Left at front door',
      timestamp: '2024-12-04T07:00:00.000Z',
      timeZone: 'America/Chicago', // the place's own zone: Austin's
      depotId: null,
      reason: null,
      nextAttemptDate: null,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await expectParcel(parcelId, 'Delivered', '2024-12-04T07:00:00.000Z');
  });

  it('PUT answers 401, 400 (bad id, bad body, empty body) and 404, changing nothing', async () => {
    const parcelId = await newParcelId();
    const created = await createEvent(parcelId, 'In Transit', { location: 'Reno' });
    expect((await putCall(created.id, { status: 'Delivered' }, { auth: null })).status).toBe(401);
    expect((await putCall('nope', { status: 'Delivered' })).status).toBe(400);
    const bad = await putCall(created.id, { status: { $gt: '' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details.status).toBeDefined();
    expect((await putCall(created.id, {})).status).toBe(400);
    expect((await putCall(MISSING_ID, { status: 'Delivered' })).status).toBe(404);
    const stored = await storedParcel(parcelId);
    expect(stored.status).toBe('In Transit');
    expect(stored.events[0]).toMatchObject({ status: 'In Transit', location: 'Reno' });
  });

  it('DELETE answers 401, 400 and 404, removing nothing', async () => {
    const parcelId = await newParcelId();
    const created = await createEvent(parcelId, 'In Transit');
    expect((await deleteCall(created.id, null)).status).toBe(401);
    expect((await deleteCall('xyz')).status).toBe(400);
    const missing = await deleteCall(MISSING_ID);
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe('Tracking event not found');
    expect((await storedParcel(parcelId)).events).toHaveLength(1);
    expect((await deleteCall(created.id)).status).toBe(200);
    expect((await deleteCall(created.id)).status).toBe(404);
  });

  it('refuses other methods with 405', async () => {
    const res = await call(
      eventAction,
      request(`/api/tracking/events/${MISSING_ID}`, { method: 'PATCH', body: {} }),
      {
        id: MISSING_ID,
      },
    );
    expect(res.status).toBe(405);
  });
});

describe('model functions', () => {
  it('deleteEvent scoped to another parcel finds nothing', async () => {
    const a = await newParcelId();
    const b = await newParcelId();
    const event = await createEvent(a, 'In Transit');
    expect(await deleteEvent(event.id, { parcelId: b })).toBeNull();
    expect(await updateEvent(event.id, { status: 'Delivered' }, { parcelId: b })).toBeNull();
    expect((await listEvents(a))!.events).toHaveLength(1);
  });
});

describe('TrackingEventFormSchema', () => {
  it('reads date and time in the chosen zone and uses the custom text for Custom Status', () => {
    const parsed = TrackingEventFormSchema.parse({
      status: 'Custom Status',
      customStatus: 'Held at customs',
      location: ' Port ',
      description: '',
      date: '2024-12-15',
      time: '09:30',
      timeZone: 'UTC',
    });
    expect(parsed).toEqual({
      status: 'Custom Status',
      customStatus: 'Held at customs',
      location: 'Port',
      description: '',
      timestamp: new Date('2024-12-15T09:30:00Z'),
      timeZone: 'UTC',
    });
    // Summer time where it applies: 09:30 in Chicago in July is 14:30 UTC.
    for (const [date, time, timeZone, utc] of [
      ['2024-12-15', '09:30', 'America/Chicago', '2024-12-15T15:30:00Z'],
      ['2024-07-15', '09:30', 'America/Chicago', '2024-07-15T14:30:00Z'],
      ['2024-12-15', '08:00', 'Asia/Tokyo', '2024-12-14T23:00:00Z'],
    ]) {
      const local = TrackingEventFormSchema.parse({ status: 'Delivered', date, time, timeZone });
      expect(local.timestamp, `${date} ${time} in ${timeZone}`).toEqual(new Date(utc!));
      expect(local.timeZone).toBe(timeZone);
    }
  });

  it('asks for a time zone it knows', () => {
    for (const timeZone of ['', 'Mars/Olympus_Mons', 'EST5EDT; drop']) {
      const result = TrackingEventFormSchema.safeParse({ status: 'Delivered', timeZone });
      expect(result.success, timeZone).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).toContain('timeZone');
    }
  });

  it('asks for the custom text, a real date and a known status', () => {
    const result = TrackingEventFormSchema.safeParse({
      status: 'Custom Status',
      date: '2024-02-31',
      time: '10:00',
      timeZone: 'UTC',
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['customStatus', 'date']));
    expect(
      TrackingEventFormSchema.safeParse({ status: 'Teleported', timeZone: 'UTC' }).success,
    ).toBe(false);
  });

  it('leaves the timestamp empty (now) without a date', () => {
    expect(
      TrackingEventFormSchema.parse({ status: 'Delivered', date: '', time: '', timeZone: 'UTC' })
        .timestamp,
    ).toBeUndefined();
  });
});

describe('dashboard Tracking pages', () => {
  function page(path: string, init: { form?: Record<string, string>; signedIn?: boolean } = {}) {
    const headers: Record<string, string> =
      init.signedIn === false ? {} : { Cookie: sessionCookie };
    return new Request(`http://localhost${path}`, {
      method: init.form ? 'POST' : 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
    });
  }
  async function run(
    fn: (args: never) => Promise<Response>,
    req: Request,
    params: Record<string, string> = {},
  ) {
    try {
      return await fn({ request: req, params, context } as never);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }
  const form = (fields: Partial<Record<string, string>>) => ({
    status: 'In Transit',
    customStatus: '',
    location: '',
    description: '',
    date: '',
    time: '',
    timeZone: 'UTC',
    ...fields,
  });

  it('send visitors who are not signed in to the login page', async () => {
    const parcelId = await newParcelId();
    const checks = [
      run(tabLoader, page('/dashboard/tracking', { signedIn: false })),
      run(parcelPageLoader, page(`/dashboard/tracking/${parcelId}`, { signedIn: false }), {
        parcelId,
      }),
      run(
        addPageAction,
        page(`/dashboard/tracking/${parcelId}/events/new`, { signedIn: false, form: form({}) }),
        {
          parcelId,
        },
      ),
    ];
    for (const res of await Promise.all(checks)) {
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toMatch(/^\/management\/access\?redirectTo=/);
    }
    expect((await storedParcel(parcelId)).events).toHaveLength(0);
  });

  it('lists parcels matching a case-insensitive, regex-safe search', async () => {
    const parcelId = await newParcelId();
    await Parcel.updateOne(
      { _id: parcelId },
      { $set: { 'recipient.name': 'Zed (Q.) Unique+Name' } },
    );
    const found = await (
      await run(tabLoader, page('/dashboard/tracking?search=zed%20(q.)%20unique%2B'))
    ).json();
    expect(found.parcels.map((p: { id: string }) => p.id)).toEqual([parcelId]);
    const none = await (await run(tabLoader, page('/dashboard/tracking?search=.*'))).json();
    expect(none.parcels).toEqual([]);
  });

  it('shows a parcel with its events newest first, and 404 for unknown or malformed ids', async () => {
    const parcelId = await newParcelId();
    await createEvent(parcelId, 'In Transit', { location: 'A', at: '2024-01-01T00:00:00Z' });
    await createEvent(parcelId, 'Delivered', { location: 'B', at: '2024-01-03T00:00:00Z' });
    const res = await run(parcelPageLoader, page(`/dashboard/tracking/${parcelId}`), { parcelId });
    expect(res.status).toBe(200);
    const { parcel } = await res.json();
    expect(parcel.status).toBe('Delivered');
    expect(parcel.events.map((e: { location: string }) => e.location)).toEqual(['B', 'A']);
    expect(
      (
        await run(parcelPageLoader, page(`/dashboard/tracking/${MISSING_ID}`), {
          parcelId: MISSING_ID,
        })
      ).status,
    ).toBe(404);
    expect(
      (await run(parcelPageLoader, page('/dashboard/tracking/zzz'), { parcelId: 'zzz' })).status,
    ).toBe(404);
  });

  it('adds an event from the form and redirects back to the parcel, keeping the search, with a toast', async () => {
    const parcelId = await newParcelId();
    const defaults = await (
      await run(addPageLoader, page(`/dashboard/tracking/${parcelId}/events/new`))
    ).json();
    expect(defaults.now.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const res = await run(
      addPageAction,
      page(`/dashboard/tracking/${parcelId}/events/new?search=bob`, {
        form: form({
          status: 'Out for Delivery',
          location: 'Depot 4',
          date: '2024-12-15',
          time: '09:30',
        }),
      }),
      { parcelId },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/dashboard/tracking/${parcelId}?search=bob`);
    expect(res.headers.get('Set-Cookie')).toMatch(/__flash=/);
    const events = (await listEvents(parcelId))!.events;
    expect(events).toMatchObject([
      { status: 'Out for Delivery', location: 'Depot 4', timestamp: '2024-12-15T09:30:00.000Z' },
    ]);
    expect((await storedParcel(parcelId)).status).toBe('Out for Delivery');
  });

  it('answers a time zone sent twice with a field error, and forms no page sends with 400, adding nothing', async () => {
    const parcelId = await newParcelId();
    const body = new URLSearchParams(form({ status: 'Delivered', timeZone: 'America/New_York' }));
    body.append('timeZone', 'Europe/Paris');
    const twice = await run(
      addPageAction,
      new Request(`http://localhost/dashboard/tracking/${parcelId}/events/new`, {
        method: 'POST',
        headers: { Cookie: sessionCookie },
        body,
      }),
      { parcelId },
    );
    expect(twice.status).toBe(400);
    expect((await twice.json()).error).toEqual({
      timeZone: ['Choose a time zone, e.g. America/New_York'],
    });
    const hostile = [
      `status${'[a]'.repeat(40)}=Delivered&timeZone=UTC`,
      `status=Delivered&timeZone=UTC&${Array.from({ length: 1_001 }, (_, i) => `f${i}=x`).join('&')}`,
    ];
    for (const raw of hostile) {
      const res = await run(
        addPageAction,
        new Request(`http://localhost/dashboard/tracking/${parcelId}/events/new`, {
          method: 'POST',
          headers: {
            Cookie: sessionCookie,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: raw,
        }),
        { parcelId },
      );
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(
        /nested deeper than any page here sends|more than 1000 fields/,
      );
    }
    expect((await storedParcel(parcelId)).events).toHaveLength(0);
  });

  it("reads the form's date and time in its time zone, offered the company's by default", async () => {
    const parcelId = await newParcelId();
    const defaults = await (
      await run(addPageLoader, page(`/dashboard/tracking/${parcelId}/events/new`))
    ).json();
    expect(defaults.timeZone).toBe('America/New_York');
    const res = await run(
      addPageAction,
      page(`/dashboard/tracking/${parcelId}/events/new`, {
        form: form({
          status: 'In Transit',
          date: '2026-11-22',
          time: '15:15',
          timeZone: 'America/New_York',
        }),
      }),
      { parcelId },
    );
    expect(res.status).toBe(302);
    const [event] = (await listEvents(parcelId))!.events;
    expect(event).toMatchObject({
      timestamp: '2026-11-22T20:15:00.000Z',
      timeZone: 'America/New_York',
    });
    // The edit form shows it as it was entered.
    const edit = await (
      await run(editPageLoader, page(`/dashboard/tracking/${parcelId}/events/${event!.id}/edit`), {
        parcelId,
        eventId: event!.id,
      })
    ).json();
    expect(edit.event).toMatchObject({ timeZone: 'America/New_York' });
  });

  it('answers 400 with field errors and the values sent, storing nothing', async () => {
    const parcelId = await newParcelId();
    const res = await run(
      addPageAction,
      page(`/dashboard/tracking/${parcelId}/events/new`, {
        form: form({ status: 'Custom Status', location: 'x'.repeat(201), date: '2024-13-01' }),
      }),
      { parcelId },
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.status).toBe('error');
    expect(Object.keys(body.error).sort()).toEqual(['customStatus', 'date', 'location']);
    expect(body.initialValue.status).toBe('Custom Status');
    expect((await storedParcel(parcelId)).events).toHaveLength(0);
  });

  it('redirects with an error toast when the parcel is gone', async () => {
    const res = await run(
      addPageAction,
      page(`/dashboard/tracking/${MISSING_ID}/events/new`, { form: form({}) }),
      {
        parcelId: MISSING_ID,
      },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/dashboard/tracking');
  });

  it('edits and deletes an event through the dialogs; events of other parcels are 404', async () => {
    const parcelId = await newParcelId();
    const otherId = await newParcelId();
    const event = await createEvent(parcelId, 'In Transit', {
      location: 'Hub',
      at: '2024-05-05T05:05:00Z',
    });
    const params = { parcelId, eventId: event.id };
    const editPath = `/dashboard/tracking/${parcelId}/events/${event.id}/edit`;

    const loaded = await (await run(editPageLoader, page(editPath), params)).json();
    expect(loaded.event).toMatchObject({ id: event.id, status: 'In Transit', location: 'Hub' });
    expect(
      (await run(editPageLoader, page(editPath), { parcelId: otherId, eventId: event.id })).status,
    ).toBe(404);
    expect(
      (await run(deletePageLoader, page(editPath), { parcelId: otherId, eventId: event.id }))
        .status,
    ).toBe(404);

    const edited = await run(
      editPageAction,
      page(editPath, {
        form: form({
          status: 'Delivered',
          location: 'Front door',
          date: '2024-05-06',
          time: '10:00',
        }),
      }),
      params,
    );
    expect(edited.status).toBe(302);
    expect(edited.headers.get('Location')).toBe(`/dashboard/tracking/${parcelId}`);
    const stored = await storedParcel(parcelId);
    expect(stored.status).toBe('Delivered');
    expect(stored.events[0]).toMatchObject({ status: 'Delivered', location: 'Front door' });

    // Scoped to the parcel in the URL: deleting through another parcel's page removes nothing.
    const wrong = await run(
      deletePageAction,
      page(`/dashboard/tracking/${otherId}/events/${event.id}/delete`, { form: {} }),
      {
        parcelId: otherId,
        eventId: event.id,
      },
    );
    expect(wrong.status).toBe(302);
    expect((await storedParcel(parcelId)).events).toHaveLength(1);

    const deleted = await run(
      deletePageAction,
      page(`/dashboard/tracking/${parcelId}/events/${event.id}/delete`, { form: {} }),
      params,
    );
    expect(deleted.status).toBe(302);
    expect((await storedParcel(parcelId)).events).toHaveLength(0);
    await expectParcel(parcelId, 'Pending', null);
  });
});

// What the delivery performance report reads of each parcel is worked out once, when its status
// or events are written: every write keeps the stored facts equal to those of the parcel.
const zone = env.COMPANY_TIMEZONE;
const at = { location: 'Door', description: '' };

async function stored(id: string) {
  const parcel = await Parcel.findById(id).lean<LeanParcel>();
  expect(parcel?.deliveryFacts).toEqual(deliveryFactsOf(parcel!, zone));
  return parcel!.deliveryFacts!;
}

describe('delivery facts', () => {
  it('put a delivery at 23:30 company time on that day, and weeks as ISO weeks', () => {
    const facts = deliveryFactsOf(
      {
        status: 'Delivered',
        // 23:30 in New York on 10 March (a Tuesday of week 11).
        actualDelivery: new Date('2026-03-11T03:30:00Z'),
        events: [
          { status: 'Failed Delivery', timestamp: new Date('2026-03-09T14:00:00Z') },
          { status: 'In Transit', timestamp: new Date('2026-03-08T14:00:00Z') },
        ],
      },
      'America/New_York',
    );
    expect(facts).toEqual({
      zone: 'America/New_York',
      delivered: { at: new Date('2026-03-11T03:30:00Z'), day: '2026-03-10', week: '2026-W11' },
      failures: [
        {
          at: new Date('2026-03-09T14:00:00Z'),
          day: '2026-03-09',
          week: '2026-W11',
          reason: 'other',
        },
      ],
    });
    expect(deliveryFactsOf({ status: 'Failed', actualDelivery: new Date() }, 'UTC')).toEqual({
      zone: 'UTC',
      failures: [],
    });
    expect(['2021-01-03', '2024-12-30', '2026-12-31', '2027-01-01'].map(isoWeekOf)).toEqual([
      '2020-W53',
      '2025-W01',
      '2026-W53',
      '2026-W53',
    ]);
  });

  it('are kept true by every write of a parcel’s status or events', async () => {
    const parcel = await createParcel({ status: 'Out for Delivery' });
    expect(await stored(parcel.id)).toEqual({ zone, failures: [] });

    // A failed attempt and a delivery as they happen (one update each, with the status).
    const failed = await pushEvent(parcel.id, {
      ...at,
      status: 'Failed Delivery',
      reason: 'recipient_unavailable',
      timestamp: new Date(Date.now() - 3_600_000),
    });
    expect((await stored(parcel.id)).failures).toMatchObject([{ reason: 'recipient_unavailable' }]);
    await pushEvent(parcel.id, { ...at, status: 'Delivered' });
    expect((await stored(parcel.id)).delivered).toBeDefined();

    // Edited, removed, added earlier than the newest, the status set by hand.
    const failedId = failed && 'event' in failed ? failed.event.id : '';
    await setEventFields(failedId, { reason: 'address_not_found' });
    expect((await stored(parcel.id)).failures).toMatchObject([{ reason: 'address_not_found' }]);
    await pushEvent(parcel.id, {
      ...at,
      status: 'Failed Delivery',
      timestamp: new Date(Date.now() - 7_200_000),
    });
    expect((await stored(parcel.id)).failures).toHaveLength(2);
    await pullEvent(failedId);
    expect((await stored(parcel.id)).failures).toHaveLength(1);
    await updateParcelFields(parcel.id, { status: 'In Transit' } as ParcelFieldChanges);
    expect((await stored(parcel.id)).delivered).toBeUndefined();
    await updateParcelFields(parcel.id, { status: 'Delivered' } as ParcelFieldChanges);
    expect((await stored(parcel.id)).delivered).toBeDefined();

    // An import's parcels, written without the model's casting.
    const doc = importedParcelDocument({
      ...parcelInput(),
      trackingNumber: 'FCT000000001',
      status: 'Delivered',
      cost: 0,
      estimatedDelivery: new Date(),
      actualDelivery: new Date('2026-03-11T03:30:00Z'),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await insertImportedParcels([doc]);
    expect((await stored(String(doc._id))).delivered).toMatchObject({ day: '2026-03-10' });
  });

  it('are worked out at start for parcels without them or in another zone, once', async () => {
    const none = await createParcel({ status: 'Delivered', actualDelivery: new Date() });
    const elsewhere = await createParcel({ status: 'Pending' });
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(none.id) },
      { $unset: { deliveryFacts: 1 } },
    );
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(elsewhere.id) },
      { $set: { 'deliveryFacts.zone': 'Asia/Tokyo' } },
    );
    expect(await refreshDeliveryFacts()).toBe(2);
    expect(await refreshDeliveryFacts()).toBe(0);
    expect((await stored(none.id)).delivered).toBeDefined();
    expect((await stored(elsewhere.id)).zone).toBe(zone);

    // A parcel left without them gets them whole with its next event.
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(none.id) },
      { $unset: { deliveryFacts: 1 } },
    );
    await pushEvent(none.id, { ...at, status: 'Failed Delivery', reason: 'refused' });
    expect((await stored(none.id)).failures).toMatchObject([{ reason: 'refused' }]);
  });
});
