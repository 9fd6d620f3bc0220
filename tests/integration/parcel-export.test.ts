import { beforeAll, describe, expect, it } from 'vitest';
import { Parcel } from '~/models/parcel.server';
import { loader as exportLoader } from '~/routes/api.parcels.export[.]csv';
import { connectDb } from '~/lib/db.server';
import { PARCEL_CSV_COLUMNS } from '~/services/parcel-csv.server';
import { callRoute } from '../support/api';
import { createUser } from '../support/factories';

let token = '';

beforeAll(async () => {
  await connectDb();
  ({ token } = await createUser('viewer', { username: 'exporter' }));
  await Parcel.insertMany(
    Array.from({ length: 1200 }, (_, i) => ({
      trackingNumber: `EXP${String(i).padStart(9, '0')}`,
      status: i % 3 ? 'Pending' : 'Delivered',
      sender: { name: `Export Sender ${i}`, phone: '+1 555 0100' },
      recipient: { name: i === 7 ? '=HYPERLINK("x")' : `Export Recipient ${i}`, address: 'A, B' },
      destinations: [{ name: 'Stop', address: '1 "Quoted" St', city: 'Reno' }],
      weight: 1.5,
    })),
  );
});

async function exportCsv(query: string) {
  return exportLoader({
    request: new Request(`http://localhost/api/parcels/export.csv${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    }),
    params: {},
    context: {},
  } as never);
}

describe('GET /api/parcels/export.csv', () => {
  it('streams every parcel of the filtered list as CSV, header first, formulas escaped', async () => {
    const res = await exportCsv('?search=EXP&sort=trackingNumber&order=asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="parcels-/);
    const text = await res.text();
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(PARCEL_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(1201);
    expect(lines[1]).toMatch(/^EXP000000000,Delivered,Standard,Standard,1.5,0,0,0,/);
    expect(lines[1]).toContain(`"[{""name"":""Stop"",""address"":""1 \\""Quoted\\"" St""`);
    expect(lines[1]).toContain(`'+1 555 0100`);
    expect(lines[8]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('applies the status filter and refuses bad queries', async () => {
    const text = await (await exportCsv('?search=EXP&status=Delivered')).text();
    expect(text.trimEnd().split('\n')).toHaveLength(401);
    const bad = await exportCsv('?sort=secret');
    expect(bad.status).toBe(400);
    const anonymous = await callRoute(exportLoader, '/api/parcels/export.csv');
    expect(anonymous.status).toBe(401);
  });
});
