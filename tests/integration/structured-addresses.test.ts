import { beforeAll, describe, expect, it } from 'vitest';
import { action as parcelApi } from '~/routes/api.parcels.$id';
import { loader as exportApi } from '~/routes/api.parcels.export[.]csv';
import { action as importApi } from '~/routes/api.parcels.import';
import { action as createApi } from '~/routes/api.parcels';
import { connectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { createUser } from '../support/factories';

let auth: Record<string, string>;

beforeAll(async () => {
  await connectDb();
  ({ auth } = await createUser('staff', { username: 'addr-staff' }));
});

const recipient = {
  name: 'Ada Address',
  address: '1 Main St',
  city: 'Cambridge',
  region: 'MA',
  postalCode: '02139',
  country: 'US',
};

describe('structured sender and recipient addresses', () => {
  it('round-trip through the API and the CSV export and import', async () => {
    const created = await callRoute(createApi, '/api/parcels', {
      method: 'POST',
      headers: auth,
      body: {
        sender: {
          name: 'Berlin Sender',
          address: 'Hauptstr. 5',
          city: 'Berlin',
          postalCode: '10115',
          country: 'DE',
        },
        recipient,
      },
    });
    expect(created.status).toBe(201);
    const { parcel } = await created.json();
    expect(parcel.recipient).toMatchObject(recipient);
    expect(parcel.sender).toMatchObject({
      city: 'Berlin',
      region: '',
      postalCode: '10115',
      country: 'DE',
    });
    // The default stop is the recipient's, with its city, postcode and country.
    expect(parcel.destinations[0]).toMatchObject({
      city: 'Cambridge',
      postalCode: '02139',
      country: 'US',
    });

    const tooLong = await callRoute(parcelApi, `/api/parcels/${parcel.id}`, {
      method: 'PUT',
      headers: auth,
      params: { id: parcel.id },
      body: { recipient: { postalCode: 'x'.repeat(21) } },
    });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).details).toEqual({
      'recipient.postalCode': ['At most 20 characters'],
    });
    const edited = await callRoute(parcelApi, `/api/parcels/${parcel.id}`, {
      method: 'PUT',
      headers: auth,
      params: { id: parcel.id },
      body: { recipient: { region: 'Massachusetts' } },
    });
    expect((await edited.json()).parcel.recipient).toMatchObject({
      ...recipient,
      region: 'Massachusetts',
    });

    const csv = await (
      await callRoute(exportApi, `/api/parcels/export.csv?ids=${parcel.id}`, { headers: auth })
    ).text();
    const [header, row] = csv.trim().split(/\r?\n/);
    for (const column of ['senderCity', 'senderCountry', 'recipientRegion', 'recipientPostalCode'])
      expect(header).toContain(column);
    expect(row).toContain('Massachusetts');

    // The same row under a new tracking number comes back with the same fields.
    const cells = header!.split(',');
    const values = row!.split(',');
    values[cells.indexOf('trackingNumber')] = '';
    const imported = await callRoute(importApi, '/api/parcels/import', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/csv' },
      body: `${header}\n${values.join(',')}\n`,
    });
    const result = await imported.json();
    expect(imported.status, JSON.stringify(result)).toBe(200);
    const [trackingNumber] = result.trackingNumbers;
    const list = await callRoute(exportApi, `/api/parcels/export.csv?search=${trackingNumber}`, {
      headers: auth,
    });
    const again = (await list.text()).trim().split(/\r?\n/)[1]!.split(',');
    for (const column of [
      'senderCity',
      'senderPostalCode',
      'senderCountry',
      'recipientCity',
      'recipientRegion',
      'recipientPostalCode',
      'recipientCountry',
    ])
      expect(again[cells.indexOf(column)], column).toBe(values[cells.indexOf(column)]);
  });
});
