import { beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { AuditEntry } from '~/models/audit.server';
import { Parcel } from '~/models/parcel.server';
import { ProofOfDelivery } from '~/models/proof-of-delivery.server';
import { action as scansApi } from '~/routes/api.scans';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { action as reopenApi } from '~/routes/api.parcels.$id.reopen';
import { action as depotApi } from '~/routes/api.depots.$id';
import { action as reopenPage } from '~/routes/dashboard.parcels.$parcelId.reopen';
import { action as stationAction } from '~/routes/dashboard.scan';
import { createDepot, saveDeliveredByScan } from '~/services/depots.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';
import { addDays, dayIn } from '~/utils/delivery-headline';
import { callRoute, expectToast } from '../support/api';
import { createEvent, createParcel, createUsers, type TestUser } from '../support/factories';

/**
 * A parcel's status moves forward by rule at the scan station and through POST /api/scans: final
 * statuses take no scan, going back is flagged, Delivered comes from a proof of a stop, and an
 * Out for Delivery scan that contradicts the delivery waits for the courier's confirmation.
 */
let users: Record<'admin' | 'staff' | 'courier', TestUser>;
let seattle: { id: string };

beforeAll(async () => {
  await connectDb();
  users = await createUsers(['admin', 'staff', 'courier'], 'rules');
  seattle = await createDepot({
    name: 'Seattle Hub',
    address: '1 Depot Way, Seattle, WA',
    city: 'Seattle',
    timeZone: 'America/Los_Angeles',
  });
});

/** A scan of the parcel to `status` at the Seattle depot. */
const atSeattle = (parcel: { trackingNumber: string }, status: string) => ({
  trackingNumber: parcel.trackingNumber,
  status,
  depotId: seattle.id,
});

const scan = (body: Record<string, unknown>) =>
  callRoute(scansApi, '/api/scans', { method: 'POST', headers: users.courier.auth, body });

const station = (form: Record<string, string>, query = '') =>
  callRoute(stationAction, `/dashboard/scan${query}`, {
    cookie: users.courier.cookie,
    form,
  });

/** A parcel out for delivery to Seattle with `stops` stops. */
async function outForDelivery(stops = 1, overrides: Record<string, unknown> = {}) {
  const parcel = await createParcel({
    recipient: { name: 'Jane Smith', address: '5 Pine St', city: 'Seattle', email: '' },
    destinations: Array.from({ length: stops }, (_, i) => ({
      name: `Stop ${i + 1}`,
      address: `${i + 1} Pine St`,
      city: 'Seattle',
    })),
    ...overrides,
  });
  await createEvent(parcel.id, 'Out for Delivery');
  return parcel;
}

const stored = (id: string) => Parcel.findById(id).lean();

describe('a delivered or returned parcel', () => {
  it('refuses a scan with what ended its journey, and stays Delivered with its proof', async () => {
    const parcel = await outForDelivery();
    await recordProofOfDelivery(parcel.id, {
      receivedBy: 'Jane Smith',
      destination: 0,
      note: '',
      signatureName: '',
      photo: [],
    });
    const events = (await stored(parcel.id))!.events.length;

    const res = await scan(atSeattle(parcel, 'Arrived at Facility'));
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'parcel_closed', status: 'Delivered' });
    expect(body.message).toMatch(/^Delivered on .+ (PST|PDT|EST|EDT) to J\. S\.: scans no longer/);

    const page = await station(
      { trackingNumber: parcel.trackingNumber, status: 'Arrived at Facility', depotId: seattle.id },
      `?status=Arrived+at+Facility&depot=${seattle.id}`,
    );
    expect(page.status).toBe(409);
    const { scan: answer } = await page.json();
    expect(answer).toMatchObject({ outcome: 'closed', status: 'Delivered' });
    expect(answer.message).toContain('to J. S.');

    const after = await stored(parcel.id);
    expect(after!.status).toBe('Delivered');
    expect(after!.events).toHaveLength(events);
    expect(after!.actualDelivery).toBeTruthy();
    expect(await ProofOfDelivery.countDocuments({ parcelId: parcel.id })).toBe(1);
  });

  it('refuses a scan of a returned parcel too', async () => {
    const parcel = await createParcel();
    await createEvent(parcel.id, 'Returned to Sender');
    const res = await scan({
      trackingNumber: parcel.trackingNumber,
      status: 'Out for Delivery',
      location: 'Van 7',
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'parcel_closed', status: 'Returned' });
    expect((await stored(parcel.id))!.status).toBe('Returned');
  });

  it('is reopened by staff only, with a reason kept in the timeline and the audit trail', async () => {
    const parcel = await createParcel();
    await createEvent(parcel.id, 'Delivered');
    const reopen = (auth: { Authorization: string }, body: unknown) =>
      callRoute(reopenApi, `/api/parcels/${parcel.trackingNumber}/reopen`, {
        method: 'POST',
        headers: auth,
        params: { id: parcel.trackingNumber },
        body,
      });
    expect((await reopen(users.courier.auth, { reason: 'Wrong door' })).status).toBe(403);
    const noReason = await reopen(users.staff.auth, {});
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).details.reason).toEqual(['Say why the parcel is reopened']);

    const res = await reopen(users.staff.auth, { reason: 'Left at the wrong address' });
    expect(res.status).toBe(201);
    const { event, parcel: after } = await res.json();
    expect(event).toMatchObject({
      status: 'In Transit',
      description: 'Reopened: Left at the wrong address',
    });
    expect(after.status).toBe('In Transit');
    const entry = await AuditEntry.findOne({ action: 'reopen', entityId: parcel.id }).lean();
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { field: 'status', before: 'Delivered', after: 'In Transit' },
        { field: 'reason', before: null, after: 'Left at the wrong address' },
      ]),
    );
    // Open again: scans change it, and a second reopen is refused.
    expect(
      (
        await scan({
          trackingNumber: parcel.trackingNumber,
          status: 'Out for Delivery',
          location: 'Van 7',
        })
      ).status,
    ).toBe(201);
    expect((await reopen(users.staff.auth, { reason: 'Again' })).status).toBe(409);
  });

  it('is reopened through the parcel’s page, which says when it is not delivered', async () => {
    const parcel = await createParcel();
    await createEvent(parcel.id, 'Returned to Sender');
    const url = `/dashboard/parcels/${parcel.id}/reopen`;
    const post = (form: Record<string, string>) =>
      callRoute(reopenPage, url, {
        cookie: users.staff.cookie,
        params: { parcelId: parcel.id },
        form,
      });
    const done = await post({
      status: 'Out for Delivery',
      reason: 'Recipient called: deliver again',
    });
    await expectToast(done, { title: 'Parcel reopened' });
    expect((await stored(parcel.id))!.status).toBe('Out for Delivery');
    const again = await post({ reason: 'Twice' });
    expect(again.status).toBe(409);
    expect((await again.json()).error['']).toEqual([
      `${parcel.trackingNumber} is Out for Delivery: only a delivered or returned parcel is reopened`,
    ]);
  });

  it('still takes a Delivered event staff add by hand', async () => {
    const parcel = await createParcel();
    const res = await callRoute(eventsApi, `/api/tracking/${parcel.id}/events`, {
      method: 'POST',
      headers: users.staff.auth,
      params: { parcelId: parcel.id },
      body: { status: 'Delivered', location: 'Front desk' },
    });
    expect(res.status).toBe(201);
    expect((await stored(parcel.id))!.status).toBe('Delivered');
  });
});

describe('a scan that moves a parcel back', () => {
  it('is recorded and flagged, in the API and at the station', async () => {
    const parcel = await outForDelivery();
    const res = await scan(atSeattle(parcel, 'Arrived at Facility'));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      parcel: { status: 'In Transit' },
      regressedFrom: 'Out for Delivery',
    });

    const other = await outForDelivery();
    const page = await station({
      trackingNumber: other.trackingNumber,
      status: 'Picked Up',
      location: 'Dock 2',
    });
    expect((await page.json()).scan).toMatchObject({
      outcome: 'recorded',
      status: 'Picked Up',
      regressedFrom: 'Out for Delivery',
    });
    // Forward is not flagged.
    const forward = await scan({
      trackingNumber: other.trackingNumber,
      status: 'In Transit',
      location: 'Dock 2',
    });
    expect((await forward.json()).regressedFrom).toBeUndefined();
  });
});

describe('Delivered at the station', () => {
  it('comes from a proof of delivery unless the settings allow a scan naming who received it', async () => {
    const parcel = await outForDelivery(2);
    const refused = await scan({
      trackingNumber: parcel.trackingNumber,
      status: 'Delivered',
      location: 'Van 7',
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'proof_of_delivery_required',
      destination: 0,
    });
    const page = await station(
      { trackingNumber: parcel.trackingNumber, status: 'Delivered', location: 'Van 7' },
      '?status=Delivered&location=Van+7',
    );
    expect((await page.json()).scan).toMatchObject({
      outcome: 'needs-proof',
      proofHref: `/dashboard/scan/proof/${parcel.id}?status=Delivered&location=Van+7&destination=0`,
    });
    expect((await stored(parcel.id))!.status).toBe('Out for Delivery');

    await saveDeliveredByScan(true);
    try {
      const unnamed = await scan({
        trackingNumber: parcel.trackingNumber,
        status: 'Delivered',
        location: 'Van 7',
      });
      expect(unnamed.status).toBe(400);
      expect((await unnamed.json()).details.receivedBy).toEqual([
        'Enter the name of the person who received the parcel',
      ]);

      // Two stops: each scan delivers one; the parcel is Delivered with its last.
      const first = await scan({
        trackingNumber: parcel.trackingNumber,
        status: 'Delivered',
        location: 'Van 7',
        receivedBy: 'Jane Smith',
      });
      expect(first.status).toBe(201);
      const one = await first.json();
      expect(one.proofOfDelivery).toMatchObject({ destination: 0, receivedBy: 'Jane Smith' });
      expect(one.parcel.status).toBe('Out for Delivery');
      const second = await station(
        {
          trackingNumber: parcel.trackingNumber,
          status: 'Delivered',
          location: 'Van 7',
          receivedBy: 'Sam Lee',
        },
        '?status=Delivered&location=Van+7',
      );
      expect((await second.json()).scan).toMatchObject({
        outcome: 'recorded',
        status: 'Delivered',
        undoable: false,
      });
      expect(await ProofOfDelivery.countDocuments({ parcelId: parcel.id })).toBe(2);
      expect((await stored(parcel.id))!.status).toBe('Delivered');
    } finally {
      await saveDeliveredByScan(false);
    }
  });
});

describe('an Out for Delivery scan that contradicts the delivery', () => {
  it('waits for the courier to confirm a day the recipient did not ask for, and keeps the override', async () => {
    const tomorrow = addDays(dayIn(new Date(), env.COMPANY_TIMEZONE), 1);
    const parcel = await createParcel({
      recipient: { name: 'Ray Later', address: '9 Elm St', city: 'Seattle' },
      deliveryPreferences: { requestedDate: tomorrow, updatedAt: new Date() },
    });
    const query = `?status=Out+for+Delivery&depot=${seattle.id}`;
    const form = atSeattle(parcel, 'Out for Delivery');
    const warned = await station(form, query);
    expect(warned.status).toBe(200);
    const { scan: answer } = await warned.json();
    expect(answer.outcome).toBe('needs-confirmation');
    expect(answer.warnings).toEqual([
      expect.stringMatching(
        /^The recipient asked for delivery on \w+, \d+ \w+ \(tomorrow\), not today\.$/,
      ),
    ]);
    expect((await stored(parcel.id))!.events).toHaveLength(0);

    const confirmed = await station({ ...form, override: 'on' }, query);
    expect((await confirmed.json()).scan).toMatchObject({
      outcome: 'recorded',
      status: 'Out for Delivery',
    });
    const after = await stored(parcel.id);
    expect(after!.events[0]!.override).toEqual(answer.warnings);
    const entry = await AuditEntry.findOne({
      entity: 'event',
      entityId: String(after!.events[0]!._id),
    }).lean();
    expect(JSON.stringify(entry!.changes)).toContain('(tomorrow), not today.');
  });

  it('warns through the API for a parcel to be held, or for another town, until sent with override', async () => {
    const held = await createParcel({
      recipient: { name: 'Hal Held', address: '1 Elm St', city: 'Seattle' },
      deliveryPreferences: { holdAtDepot: true, updatedAt: new Date() },
    });
    const heldScan = await scan(atSeattle(held, 'Out for Delivery'));
    expect(heldScan.status).toBe(409);
    expect(await heldScan.json()).toMatchObject({
      code: 'scan_needs_confirmation',
      warnings: ['The recipient asked us to hold it at the depot for collection.'],
    });

    const portland = await createParcel({
      recipient: { name: 'Pat Away', address: '3 Oak St', city: 'Portland' },
      destinations: [{ name: 'Pat Away', address: '3 Oak St', city: 'Portland' }],
    });
    const body = atSeattle(portland, 'Out for Delivery');
    const away = await scan(body);
    expect(away.status).toBe(409);
    expect((await away.json()).warnings).toEqual([
      'It goes to Portland; Seattle Hub delivers in Seattle.',
    ]);
    const sent = await scan({ ...body, override: true });
    expect(sent.status).toBe(201);
    expect((await sent.json()).event.override).toEqual([
      'It goes to Portland; Seattle Hub delivers in Seattle.',
    ]);
    // A parcel for the depot's own town goes out without a word.
    const local = await outForDelivery();
    await createEvent(local.id, 'Arrived at Facility');
    expect((await scan(atSeattle(local, 'Out for Delivery'))).status).toBe(201);
  });
});

describe("a depot's city", () => {
  it('is kept when a change does not give it', async () => {
    const depot = await createDepot({
      name: 'Tacoma Yard',
      address: '9 Dock Rd',
      city: 'Tacoma',
      timeZone: 'America/Los_Angeles',
    });
    const res = await callRoute(depotApi, `/api/depots/${depot.id}`, {
      method: 'PUT',
      headers: users.admin.auth,
      params: { id: depot.id },
      body: { name: 'Tacoma Yard North', timeZone: 'America/Los_Angeles' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).depot).toMatchObject({ name: 'Tacoma Yard North', city: 'Tacoma' });
  });
});
