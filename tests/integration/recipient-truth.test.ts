import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressTimeZone, placeTimeZone } from '~/lib/address-time-zone.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { insertDepot } from '~/models/depot.server';
import { listNotifications } from '~/models/notification.server';
import { action as preferencesApi } from '~/routes/api.tracking.track.$trackingNumber.delivery-preferences';
import { loader as trackPage } from '~/routes/_public.track';
import { createParcel } from '~/services/parcels.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';
import { lookupGlance, lookupTrackingNumber } from '~/services/public-tracking.server';
import { wordsFor } from '~/lib/i18n.server';
import { addEvent } from '~/services/tracking-events.server';
import { requestableDays } from '~/services/delivery-preferences.server';
import { EMPTY_CONTACT } from '~/schemas/parcel';
import { loader as parcelDetails } from '~/routes/dashboard.parcels.$parcelId._index';
import { callRoute, uniqueAddress } from '../support/api';
import { createUser, parcelInput } from '../support/factories';
import { fileOf, jpegWithGps } from '../support/images';

/**
 * What the recipient is told is true: the place's own time, the recipient's own zone for windows,
 * a failed attempt's reason and choices, and a change of preferences confirmed to them.
 */

beforeAll(async () => {
  await connectDb();
});

afterAll(async () => {
  await disconnectDb();
});

/** A parcel sent to `recipient` (the contact's other fields empty), expected on `estimated`. */
function parcelFor(
  recipient: Partial<typeof EMPTY_CONTACT>,
  estimated: string,
  extra: Partial<Parameters<typeof createParcel>[0]> = {},
) {
  return createParcel(
    parcelInput({
      sender: undefined,
      recipient: { ...EMPTY_CONTACT, ...recipient },
      estimatedDelivery: new Date(estimated),
      ...extra,
    }),
  );
}

async function publicResult(trackingNumber: string) {
  const lookup = await lookupTrackingNumber(trackingNumber);
  if (lookup.kind !== 'found') throw new Error(`${trackingNumber} not found`);
  return { result: lookup.result, glance: await lookupGlance(lookup.result, wordsFor('en')) };
}

describe('the zone of an address', () => {
  it.each<[string, Parameters<typeof addressTimeZone>[0], string | null]>([
    [
      'an explicit zone wins',
      { timeZone: 'asia/tokyo', city: 'Paris', country: 'FR' },
      'Asia/Tokyo',
    ],
    ['a US ZIP code', { postalCode: '98101', country: 'US' }, 'America/Los_Angeles'],
    [
      'a ZIP code in a country left empty (the company’s)',
      { postalCode: '80202' },
      'America/Denver',
    ],
    [
      'a town in its region',
      { city: 'Portland', region: 'OR', country: 'USA' },
      'America/Los_Angeles',
    ],
    ['a country with one zone', { city: 'Lyon', country: 'France' }, 'Europe/Paris'],
    [
      'a region of a country with several',
      { region: 'Queensland', country: 'AU' },
      'Australia/Brisbane',
    ],
    ['a street alone says nothing', { address: '9 Elm St' }, null],
  ])('%s', (_case, address, zone) => {
    expect(addressTimeZone(address)).toBe(zone);
  });

  it('reads a typed place as a town, and only a known one', () => {
    expect(placeTimeZone('Seattle, WA')).toBe('America/Los_Angeles');
    expect(placeTimeZone('Paris, France')).toBe('Europe/Paris');
    expect(placeTimeZone('Hub 7')).toBeNull();
  });
});

describe('the place’s own time', () => {
  it('an event at a Seattle depot and a proof at a Paris stop show their own local times', async () => {
    const depot = await insertDepot({
      name: 'Seattle Depot',
      address: '',
      timeZone: 'America/Los_Angeles',
    });
    const parcel = await parcelFor(
      {
        name: 'Claire Dubois',
        address: '12 rue de Rivoli',
        city: 'Paris',
        postalCode: '75004',
        country: 'France',
      },
      '2030-03-04T00:00:00Z',
      { serviceType: 'Express' },
    );
    await addEvent(parcel.id, {
      status: 'Departed Facility',
      location: '',
      description: '',
      depotId: depot.id,
      timestamp: new Date(Date.now() - 3_600_000),
    });
    await recordProofOfDelivery(parcel.id, {
      receivedBy: 'Claire Dubois',
      destination: 0,
      note: '',
      signatureName: '',
      photo: [fileOf(await jpegWithGps(40, 30), 'door.jpg', 'image/jpeg')],
    });
    const { result, glance } = await publicResult(parcel.trackingNumber);
    const departed = result.events.find((e) => e.status === 'Departed Facility')!;
    expect(departed).toMatchObject({ location: 'Seattle Depot', timeZone: 'America/Los_Angeles' });
    const delivered = result.events.find((e) => e.status === 'Delivered')!;
    expect(delivered.timeZone).toBe('Europe/Paris');
    // The recipient's zone is Paris too; the headline names it.
    expect(result.parcel.timeZone).toBe('Europe/Paris');
    expect(glance.headline).toMatch(
      /^Delivered \w+day, \d{1,2} \w+ at .* CES?T, received by C\. D\.$/,
    );
  });

  it('a window typed for a California address is kept and shown in Pacific time, named', async () => {
    const parcel = await parcelFor(
      {
        name: 'Sam Diego',
        address: '1 Harbor Dr',
        city: 'San Diego',
        region: 'CA',
        postalCode: '92101',
        country: 'US',
      },
      '2099-01-06T00:00:00Z',
      { deliveryWindow: { fromTime: '09:00', untilTime: '12:00' } },
    );
    expect(parcel.deliveryWindow).toEqual({
      from: '2099-01-06T17:00:00.000Z',
      until: '2099-01-06T20:00:00.000Z',
    });
    const { glance, result } = await publicResult(parcel.trackingNumber);
    expect(glance.window).toBe('between 9 am and 12 pm PST');
    // The public sees the town and the postcode's area, never the street.
    expect(result.parcel.recipient.address).toBe('San Diego, CA 921…, United States of America');

    // Staff read every address in full, the state included, in the country's order.
    const { cookie } = await createUser('viewer');
    const details = await callRoute(parcelDetails, `/dashboard/parcels/${parcel.id}`, {
      params: { parcelId: parcel.id },
      cookie,
    });
    expect(details.status).toBe(200);
    const { addresses } = (await details.json()) as {
      addresses: { recipient: string[]; destinations: string[][] };
    };
    expect(addresses.recipient).toEqual([
      '1 Harbor Dr',
      'San Diego, CA 92101',
      'United States of America',
    ]);
  });
});

describe('after a failed attempt', () => {
  it('the page leads with the reason and the next attempt, the choices stay open, and the e-mail says the same first', async () => {
    const parcel = await parcelFor(
      {
        name: 'Rosa Failed',
        email: 'rosa@example.com',
        address: '5 Oak Ave',
        city: 'Boston',
        region: 'MA',
        postalCode: '02108',
        country: 'US',
      },
      '2099-01-06T00:00:00Z',
    );
    await addEvent(parcel.id, {
      status: 'Failed Delivery',
      location: 'Boston',
      description: 'Knocked twice',
      reason: 'recipient_unavailable',
      nextAttemptDate: '2099-01-07',
    });
    const res = await callRoute(trackPage, `/track?number=${parcel.trackingNumber}`, {
      clientAddress: uniqueAddress(),
    });
    const { glance } = (await res.json()) as {
      glance: { attempt: { reason: string; next: string | null } };
    };
    expect(glance.attempt).toMatchObject({
      reason: 'Nobody was available to receive the parcel',
      next: 'Wednesday, 7 January',
    });

    const { notifications } = await listNotifications({
      trackingNumber: parcel.trackingNumber,
      automatic: true,
    });
    const [email] = notifications;
    expect(email!.title).toBe(
      `Delivery attempted: nobody was available to receive the parcel — we'll try again Wednesday, 7 January (${parcel.trackingNumber})`,
    );
    expect(email!.message.split('\n')[0]).toMatch(
      new RegExp(
        `^We tried to deliver your parcel ${parcel.trackingNumber} on .*: Nobody was available to receive the parcel\\. We will try again on Wednesday, 7 January\\. Choose another day, a safe place, a neighbour or collection at the depot: \\S+#manage$`,
      ),
    );

    // The recipient can still choose, and hears of the change at their own address.
    const answer = await callRoute(
      preferencesApi,
      `/api/tracking/track/${parcel.trackingNumber}/delivery-preferences`,
      {
        method: 'POST',
        params: { trackingNumber: parcel.trackingNumber },
        body: { postalCode: '02108', safePlace: 'neighbour', requestedDate: requestableDays()[1] },
        clientAddress: uniqueAddress(),
      },
    );
    expect(answer.status).toBe(200);
    const after = await listNotifications({ trackingNumber: parcel.trackingNumber });
    const confirmation = after.notifications.find((n) =>
      n.title.startsWith('Your delivery preferences'),
    )!;
    expect(confirmation.recipient).toBe('rosa@example.com');
    expect(confirmation.message).toContain('- Safe place: With a neighbour');
    expect(confirmation.message).toContain('If you did not make this change, contact us');
  });
});
