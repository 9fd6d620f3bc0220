import { EMPTY_CONTACT } from '~/schemas/parcel';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry } from '~/models/audit.server';
import { importedParcelDocument, insertImportedParcels } from '~/models/parcel-writes.server';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel, type LeanParcel } from '~/models/parcel.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import type { WebhookEventType } from '~/schemas/integrations';
import { loader as exportLoader } from '~/routes/api.parcels.export[.]csv';
import { action as importAction, loader as importLoader } from '~/routes/api.parcels.import';
import { PARCEL_IMPORT_MAX_ROWS } from '~/schemas/constants';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { PARCEL_CSV_COLUMNS, unescapeCsvCell } from '~/services/parcel-csv.server';
import { parcelImportTemplate, readParcelCsv } from '~/services/parcel-import.server';
import { callRoute } from '../support/api';
import { createUser, parcelInput } from '../support/factories';

type ImportBody = {
  imported: number;
  rows: number;
  dryRun: boolean;
  errors: Array<{ row: number; field: string | null; message: string }>;
  trackingNumbers: string[];
  created: number;
  updated: number;
  unchanged: number;
  updatedTrackingNumbers: string[];
  error?: string;
  message?: string;
};

const HEADER = PARCEL_CSV_COLUMNS.join(',');
let token = '';

async function signIn(username: string, role: 'staff' | 'viewer' = 'staff') {
  return (await createUser(role, { username })).token;
}

beforeAll(async () => {
  await connectDb();
  token = await signIn('importer');
});

afterAll(async () => {
  await disconnectDb();
});

async function importCsv(
  csv: string,
  {
    query = '',
    auth = token,
    type = 'text/csv',
  }: { query?: string; auth?: string; type?: string } = {},
): Promise<{ status: number; body: ImportBody }> {
  const res = await importAction({
    request: new Request(`http://localhost/api/parcels/import${query}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${auth}`, 'Content-Type': type },
      body: csv,
    }),
    params: {},
    context: { clientAddress: '10.9.8.7' },
  } as never);
  return { status: res.status, body: await res.json() };
}

async function exportCsv(ids: string[] = []): Promise<string> {
  const only = ids.length ? `&ids=${ids.join(',')}` : '';
  const res = await exportLoader({
    request: new Request(
      `http://localhost/api/parcels/export.csv?sort=trackingNumber&order=asc${only}`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    ),
    params: {},
    context: {},
  } as never);
  expect(res.status).toBe(200);
  return res.text();
}

/** A row of the export's columns from a few values; every other cell is empty. */
function row(values: Partial<Record<(typeof PARCEL_CSV_COLUMNS)[number], string>>): string {
  return PARCEL_CSV_COLUMNS.map((c) => {
    const v = values[c] ?? '';
    return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  }).join(',');
}

/** What the export carries of a parcel: every field but ids, events and updatedAt. */
function comparable(p: LeanParcel) {
  return {
    trackingNumber: p.trackingNumber,
    status: p.status,
    serviceType: p.serviceType,
    priority: p.priority,
    weight: p.weight,
    dimensions: p.dimensions,
    cost: p.cost,
    estimatedDelivery: p.estimatedDelivery?.toISOString() ?? null,
    actualDelivery: p.actualDelivery?.toISOString() ?? null,
    createdAt: p.createdAt?.toISOString() ?? null,
    sender: p.sender,
    recipient: p.recipient,
    destinations: (p.destinations ?? []).map(({ _id, ...d }) => d),
  };
}

async function storedParcels() {
  const docs = await Parcel.find({}).sort({ trackingNumber: 1 }).lean<LeanParcel[]>();
  return docs.map(comparable);
}

/** Switches the app to a database of its own name that holds nothing yet. */
async function useEmptyDatabase() {
  const uri = new URL(env.MONGODB_URI!);
  uri.pathname = `/import_${randomBytes(6).toString('hex')}`;
  await disconnectDb();
  env.MONGODB_URI = uri.toString();
  await connectDb();
  expect(await Parcel.countDocuments()).toBe(0);
}

describe('unescaping the export', () => {
  it("removes the ' the export put before a formula or another ', and only that", () => {
    expect(unescapeCsvCell("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(unescapeCsvCell("'+1 555")).toBe('+1 555');
    expect(unescapeCsvCell("'-x")).toBe('-x');
    expect(unescapeCsvCell("'@x")).toBe('@x');
    expect(unescapeCsvCell("''=x")).toBe("'=x");
    expect(unescapeCsvCell("''")).toBe("'");
    expect(unescapeCsvCell("'Ohana")).toBe("'Ohana");
    expect(unescapeCsvCell("'")).toBe("'");
    expect(unescapeCsvCell('plain')).toBe('plain');
  });
});

describe('the stored form of an imported parcel', () => {
  it('is what mongoose would store for the same parcel', () => {
    const input = {
      trackingNumber: 'ABC123456789',
      sender: { ...EMPTY_CONTACT, name: 'S', email: 'Mixed@Case.Example' },
      recipient: {
        name: 'R',
        email: '',
        phone: '+1',
        address: '1 Main St',
        city: 'Cambridge',
        region: 'MA',
        postalCode: '02139',
        country: 'US',
        timeZone: 'America/New_York',
      },
      destinations: [{ name: 'D', address: 'A', city: 'C', country: 'USA', postalCode: '1' }],
      weight: 1.5,
      dimensions: { length: 1, width: 2, height: 3 },
      serviceType: 'Express' as const,
      priority: 'High' as const,
      status: 'Delivered' as const,
      cost: 12,
      estimatedDelivery: new Date('2030-01-01T00:00:00Z'),
      actualDelivery: new Date('2030-01-02T00:00:00Z'),
      createdAt: new Date('2029-01-01T00:00:00Z'),
      updatedAt: new Date('2029-06-01T00:00:00Z'),
    };
    const ours = importedParcelDocument(input);
    const theirs = new Parcel({
      ...input,
      _id: ours._id,
      destinations: [{ ...input.destinations[0], _id: ours.destinations[0]!._id }],
    }).toObject();
    // The version key mongoose adds when it saves.
    expect(JSON.parse(JSON.stringify(ours))).toEqual(
      JSON.parse(JSON.stringify({ ...theirs, __v: 0 })),
    );
  });
});

describe('writing imported parcels', () => {
  it('leaves nothing of a bulk write that fails part-way', async () => {
    const taken = await Parcel.create({ trackingNumber: 'DUP000000001', recipient: { name: 'x' } });
    const make = (trackingNumber: string) =>
      importedParcelDocument({
        ...parcelInput({ recipient: { ...EMPTY_CONTACT, name: 'R', address: 'A' }, weight: 0 }),
        trackingNumber,
        status: 'Pending',
        cost: 0,
        estimatedDelivery: new Date(),
        actualDelivery: undefined,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    const docs = [
      make('DUP000000002'),
      make('DUP000000003'),
      make(taken.trackingNumber),
      make('DUP000000004'),
    ];
    await expect(insertImportedParcels(docs)).rejects.toMatchObject({ code: 11000 });
    expect(await Parcel.countDocuments({ _id: { $in: docs.map((d) => d._id) } })).toBe(0);
    expect(await Parcel.countDocuments({ trackingNumber: /^DUP/ })).toBe(1);
    await Parcel.deleteOne({ _id: taken._id });
  });
});

describe('POST /api/parcels/import', () => {
  it('round-trips an export into an empty database: the same parcels', async () => {
    const statuses = ['Pending', 'In Transit', 'Delivered', 'Returned'] as const;
    await Parcel.insertMany(
      Array.from({ length: 60 }, (_, i) => ({
        trackingNumber: `RTP${String(i).padStart(9, '0')}`,
        status: statuses[i % 4],
        serviceType: i % 2 ? 'Express' : 'Standard',
        priority: i % 3 ? 'High' : 'Low',
        weight: i / 4,
        dimensions: { length: i, width: 2.5, height: 0 },
        cost: 10 + i / 100,
        estimatedDelivery: new Date(Date.UTC(2031, 0, 1 + i, 10, 30)),
        ...(i % 4 === 2 ? { actualDelivery: new Date(Date.UTC(2030, 5, 1, 12, 0, 0, 123)) } : {}),
        createdAt: new Date(Date.UTC(2029, 1, 2, 3, 4, 5, i)),
        sender: {
          name: ['=HYPERLINK("x")', "'=quoted", "'Ohana Café", '-minus', 'Ünïcødé 📦'][i % 5],
          email: i % 2 ? `s${i}@example.com` : '',
          phone: '+1 555 0100',
          address: 'Line one\nLine two, "quoted"',
        },
        recipient: { name: `Recipient ${i}`, address: `${i} Main St`, email: '', phone: '@home' },
        destinations:
          i % 5 === 0
            ? []
            : [
                {
                  name: 'Stop A',
                  address: '1 "A" St',
                  city: 'Reno',
                  country: 'USA',
                  postalCode: '',
                },
                { name: '', address: 'B', city: '=cmd', country: 'Canada', postalCode: 'K1A' },
              ],
      })),
    );
    const before = await storedParcels();
    const csv = await exportCsv();

    await useEmptyDatabase();
    token = await signIn('importer-again');
    const { status, body } = await importCsv(csv);
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
    expect(body).toMatchObject({ imported: 60, rows: 60, dryRun: false });

    const after = await storedParcels();
    // A parcel stored without destinations (possible only before they were required) gets the
    // recipient's, as a new parcel would.
    const expected = before.map((p) =>
      p.destinations.length
        ? p
        : {
            ...p,
            destinations: [
              {
                name: p.recipient!.name,
                address: p.recipient!.address,
                city: '',
                country: 'USA',
                postalCode: '',
              },
            ],
          },
    );
    expect(after).toEqual(expected);
    // And exported again, the file is the same apart from those destinations.
    const twice = await exportCsv();
    expect(twice.split('\n').length).toBe(csv.split('\n').length);
    // Imported once more, every row is its stored parcel unchanged.
    const again = await importCsv(twice);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 60, errors: [] });
    expect(await storedParcels()).toEqual(expected);

    // One audit entry per imported parcel, marked as an import.
    const audits = await AuditEntry.find({ action: 'import' }).lean();
    expect(audits).toHaveLength(60);
    expect(audits[0]).toMatchObject({ entity: 'parcel', via: 'api', address: '10.9.8.7' });
  });

  it('imports nothing when one row is bad, and names the row and the column', async () => {
    const before = await Parcel.countDocuments();
    const csv = [
      HEADER,
      row({ recipientName: 'Good One', recipientAddress: '1 St' }),
      row({ recipientName: 'Good Two', recipientAddress: '2 St', weight: '3' }),
      row({ recipientName: '', recipientAddress: '3 St', weight: 'heavy', status: 'Lost' }),
      row({ recipientName: 'Good Four', recipientAddress: '4 St' }),
    ].join('\n');
    const { status, body } = await importCsv(csv);
    expect(status).toBe(400);
    expect(body.imported).toBe(0);
    expect(body.error).toMatch(/Nothing was imported: 1 row has errors/);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { row: 4, field: 'recipientName', message: 'Recipient name is required' },
        { row: 4, field: 'weight', message: 'Weight must be a number' },
        { row: 4, field: 'status', message: expect.stringMatching(/^Status must be one of/) },
      ]),
    );
    expect(new Set(body.errors.map((e) => e.row))).toEqual(new Set([4]));
    expect(await Parcel.countDocuments()).toBe(before);
  });

  it('dryRun validates and writes nothing', async () => {
    const before = await Parcel.countDocuments();
    const csv = [HEADER, row({ recipientName: 'Dry', recipientAddress: '1 Dry St' })].join('\n');
    const { status, body } = await importCsv(csv, { query: '?dryRun=true' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ imported: 0, rows: 1, dryRun: true, errors: [] });
    expect(await Parcel.countDocuments()).toBe(before);
    const bad = await importCsv(`${HEADER}\n${row({ recipientAddress: 'x' })}`, {
      query: '?dryRun=true',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ row: 2, field: 'recipientName' });
    expect((await importCsv(csv, { query: '?dryRun=maybe' })).status).toBe(400);
  });

  it('refuses a tracking number twice in the file or not shaped as one', async () => {
    const [existing] = await Parcel.find({}).limit(1).lean<LeanParcel[]>();
    const before = await storedParcels();
    const csv = [
      HEADER,
      row({ trackingNumber: existing!.trackingNumber, recipientName: 'A', recipientAddress: 'a' }),
      row({ trackingNumber: 'new000000001', recipientName: 'B', recipientAddress: 'b' }),
      row({ trackingNumber: 'NEW000000001', recipientName: 'C', recipientAddress: 'c' }),
      row({ trackingNumber: 'bad', recipientName: 'D', recipientAddress: 'd' }),
    ].join('\r\n');
    const { status, body } = await importCsv(csv);
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        row: 4,
        field: 'trackingNumber',
        message: 'Tracking number NEW000000001 is also on row 3',
      },
      {
        row: 5,
        field: 'trackingNumber',
        message: 'Tracking numbers are three letters and nine digits, like ABC123456789',
      },
    ]);
    // The good rows, the update of the stored parcel included, wait for the bad ones.
    expect(await storedParcels()).toEqual(before);
  });

  it('gives rows without a tracking number a new one, and fills in the defaults', async () => {
    const csv = [
      'recipientAddress,recipientName,destinations',
      '"9 Elm St",Default Parcel,',
      '',
      ',,',
      `"1 Oak St",With Stops,"${JSON.stringify([{ city: 'Oslo', address: 'Karl Johans gate 1' }]).replace(/"/g, '""')}"`,
    ].join('\n');
    const { status, body } = await importCsv(csv);
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
    expect(body.imported).toBe(2);
    expect(body.trackingNumbers).toHaveLength(2);
    const [first, second] = await Promise.all(
      body.trackingNumbers.map((n) => Parcel.findOne({ trackingNumber: n }).lean<LeanParcel>()),
    );
    expect(first).toMatchObject({
      status: 'Pending',
      cost: 25.99,
      serviceType: 'Standard',
      recipient: { name: 'Default Parcel', address: '9 Elm St' },
      destinations: [{ name: 'Default Parcel', address: '9 Elm St', country: 'USA' }],
    });
    expect(first!.estimatedDelivery!.getTime()).toBeGreaterThan(Date.now());
    expect(second!.destinations).toMatchObject([{ city: 'Oslo', country: 'USA' }]);
  });

  it('reports header problems, bad JSON, bad CSV and extra cells on their rows', () => {
    expect(readParcelCsv('').errors).toEqual([
      { row: 1, field: null, message: expect.stringMatching(/^The first row must name/) },
    ]);
    expect(readParcelCsv('recipientName,colour\nA,red').errors).toEqual([
      { row: 1, field: 'colour', message: expect.stringMatching(/^Unknown column "colour"/) },
      { row: 1, field: 'recipientAddress', message: 'The column "recipientAddress" is missing' },
    ]);
    expect(
      readParcelCsv('recipientName,recipientAddress,destinations\nA,B,[oops\nC,D,,extra').errors,
    ).toEqual([
      { row: 2, field: 'destinations', message: expect.stringMatching(/^Must be a JSON list/) },
      { row: 3, field: null, message: 'This row has 4 cells; the header names 3' },
    ]);
    expect(
      readParcelCsv('recipientName,recipientAddress,destinations\nA,B,"[{""city"": 5}]"').errors,
    ).toEqual([{ row: 2, field: 'destinations', message: 'Destination 1 city: Must be a string' }]);
    const quoted = readParcelCsv('recipientName,recipientAddress\n"A\nB",x\nC,"unclosed\n');
    expect(quoted.errors).toEqual([
      { row: 3, field: null, message: expect.stringMatching(/^Not valid CSV: Quote Not Closed/) },
    ]);
    const tooMany = readParcelCsv(
      `recipientName,recipientAddress\n${'a,b\n'.repeat(PARCEL_IMPORT_MAX_ROWS + 1)}`,
    );
    expect(tooMany.errors[0]!.message).toMatch(/at most 20000 can be imported at once/);
  });

  it('serves a template of the export columns that imports as it is', async () => {
    const template = parcelImportTemplate();
    expect(template.split('\n')[0]).toBe(HEADER);
    const { status, body } = await importCsv(template, { query: '?dryRun=true' });
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
    expect(body.rows).toBe(1);
  });

  it('needs the staff role, a CSV body and POST', async () => {
    const viewer = await signIn('import-viewer', 'viewer');
    const csv = `${HEADER}\n${row({ recipientName: 'A', recipientAddress: 'B' })}`;
    expect((await importCsv(csv, { auth: viewer })).status).toBe(403);
    expect((await importCsv(csv, { type: 'application/json' })).status).toBe(415);
    const notUtf8 = await importAction({
      request: new Request('http://localhost/api/parcels/import', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
        body: new Uint8Array([0x72, 0xff, 0xfe, 0x0a]),
      }),
      params: {},
      context: {},
    } as never);
    expect(notUtf8.status).toBe(400);
    // Past IMPORT_BODY_LIMIT_BYTES, 413 (the server refuses it before the route in production).
    const limit = env.IMPORT_BODY_LIMIT_BYTES;
    env.IMPORT_BODY_LIMIT_BYTES = 1024;
    try {
      const big = await importCsv(
        `${HEADER}\n${row({ recipientName: 'x'.repeat(2000), recipientAddress: 'B' })}`,
      );
      expect(big.status).toBe(413);
      expect(big.body.error).toBe('The request body is larger than 1024 bytes');
    } finally {
      env.IMPORT_BODY_LIMIT_BYTES = limit;
    }
    const get = await callRoute(importLoader, '/api/parcels/import');
    expect(get.status).toBe(405);
  });

  it('imports 10,000 rows well within 30 s', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        row({
          trackingNumber: `TEN${String(i).padStart(9, '0')}`,
          status: 'In Transit',
          weight: String((i % 50) / 2),
          estimatedDelivery: '2031-03-04T05:06:07.000Z',
          senderName: `Sender ${i}`,
          senderPhone: "'+1 555 0100",
          recipientName: `Recipient ${i}`,
          recipientEmail: `r${i}@example.com`,
          recipientAddress: `${i} Long Street, Some City, Some Region`,
          destinations: JSON.stringify([
            {
              name: `Stop ${i}`,
              address: `${i} Long Street`,
              city: 'Some City',
              country: 'USA',
              postalCode: '12345',
            },
          ]),
        }),
      );
    const csv = lines.join('\n');
    const before = await Parcel.countDocuments();
    const started = performance.now();
    const { status, body } = await importCsv(csv);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Imported 10,000 rows (${(csv.length / 1024 / 1024).toFixed(1)} MB) in ${seconds.toFixed(2)} s`,
    );
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
    expect(body.imported).toBe(10_000);
    expect(await Parcel.countDocuments()).toBe(before + 10_000);
    expect(await Parcel.findOne({ trackingNumber: 'TEN000000042' }).lean()).toMatchObject({
      sender: { phone: '+1 555 0100' },
      recipient: { email: 'r42@example.com' },
    });
    // The target is under 30 s on this machine; the bound here only catches a collapse.
    expect(seconds).toBeLessThan(120);
  }, 180_000);
});

describe('re-importing an edited export', () => {
  type Cells = Record<(typeof PARCEL_CSV_COLUMNS)[number], string>;

  async function storedParcel(name: string, { stops = true } = {}) {
    const doc = await insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        trackingNumber,
        status: 'In Transit',
        weight: 1,
        cost: 30,
        estimatedDelivery: new Date('2031-01-10T00:00:00Z'),
        sender: { name: `${name} Sender`, address: '1 Sender Rd' },
        recipient: { name, address: '2 High St', city: 'Springfield', email: 'r@example.com' },
        destinations: stops
          ? [{ name, address: '2 High St', city: 'Springfield', country: 'USA' }]
          : [],
      }),
    );
    return { id: String(doc.id), trackingNumber: doc.trackingNumber as string };
  }

  async function exported(ids: string[]): Promise<Cells[]> {
    return parse(await exportCsv(ids), { columns: true }) as Cells[];
  }

  const toCsv = (rows: Array<Partial<Cells>>) =>
    stringify(rows, { header: true, columns: [...PARCEL_CSV_COLUMNS] });

  const stored = async (id: string) => comparable((await Parcel.findById(id).lean<LeanParcel>())!);

  async function payloads(type: WebhookEventType) {
    const docs = await WebhookDelivery.find({ type }).lean<{ payload: string }[]>();
    return docs.map((d) => JSON.parse(d.payload).data);
  }

  it('updates the parcels by tracking number as their edit would: audit entries and webhooks', async () => {
    await createWebhook({
      url: 'https://hooks.example/imports',
      events: ['parcel.updated', 'parcel.status_changed', 'parcel.imported'],
      description: '',
    });
    const first = await storedParcel('Edited One');
    const second = await storedParcel('Edited Two');
    // Stored without stops (as before they were required): its export's `[]` keeps none.
    const third = await storedParcel('Left Alone', { stops: false });
    const before = await Promise.all([first, second, third].map((p) => stored(p.id)));
    const thirdUpdatedAt = (await Parcel.findById(third.id).lean<LeanParcel>())!.updatedAt;

    const rows = await exported([first.id, second.id, third.id]);
    const byNumber = (n: string) => rows.find((r) => r.trackingNumber === n)!;
    Object.assign(byNumber(first.trackingNumber), {
      weight: '7.5',
      status: 'Delivered',
      recipientCity: 'Boston',
      recipientEmail: 'New@Example.com',
    });
    Object.assign(byNumber(second.trackingNumber), { estimatedDelivery: '2032-05-06' });
    rows.push({
      ...Object.fromEntries(PARCEL_CSV_COLUMNS.map((c) => [c, ''])),
      recipientName: 'Brand New',
      recipientAddress: '3 New St',
    } as Cells);
    const csv = toCsv(rows);

    const dry = await importCsv(csv, { query: '?dryRun=true' });
    expect(dry.body).toMatchObject({ created: 1, updated: 2, unchanged: 1, imported: 0 });
    expect(await stored(first.id)).toEqual(before[0]);

    const { status, body } = await importCsv(csv);
    expect(body.errors).toEqual([]);
    expect(status).toBe(200);
    expect(body).toMatchObject({ imported: 1, created: 1, updated: 2, unchanged: 1, rows: 4 });
    expect(body.updatedTrackingNumbers).toEqual(
      [first.trackingNumber, second.trackingNumber].sort(),
    );
    expect(body.trackingNumbers).toHaveLength(1);

    // The round trip equals the edit: nothing else changed, and the number stayed.
    const one = await stored(first.id);
    expect(one).toEqual({
      ...before[0],
      weight: 7.5,
      status: 'Delivered',
      actualDelivery: expect.any(String),
      recipient: { ...before[0]!.recipient, city: 'Boston', email: 'new@example.com' },
    });
    expect(await stored(second.id)).toEqual({
      ...before[1],
      estimatedDelivery: '2032-05-06T00:00:00.000Z',
    });
    expect(await stored(third.id)).toEqual(before[2]);
    expect((await Parcel.findById(third.id).lean<LeanParcel>())!.updatedAt).toEqual(thirdUpdatedAt);

    const audits = await AuditEntry.find({ action: 'update', entity: 'parcel' }).lean();
    expect(audits.map((a) => a.label).sort()).toEqual(
      [first.trackingNumber, second.trackingNumber].sort(),
    );
    const firstAudit = audits.find((a) => a.entityId === first.id)!;
    expect(firstAudit).toMatchObject({ via: 'api', address: '10.9.8.7' });
    expect(firstAudit.changes.map((c) => c.field)).toEqual([
      'actualDelivery',
      'recipient.city',
      'recipient.email',
      'status',
      'weight',
    ]);

    const updated = await payloads('parcel.updated');
    expect(updated.map((d) => d.parcel.trackingNumber).sort()).toEqual(
      [first.trackingNumber, second.trackingNumber].sort(),
    );
    expect(await payloads('parcel.status_changed')).toEqual([
      expect.objectContaining({
        previousStatus: 'In Transit',
        parcel: expect.objectContaining({ trackingNumber: first.trackingNumber }),
      }),
    ]);
    expect(await payloads('parcel.imported')).toEqual([
      {
        count: 1,
        trackingNumbers: body.trackingNumbers,
        updatedTrackingNumbers: body.updatedTrackingNumbers,
      },
    ]);

    // Imported again, the same file changes nothing more.
    const again = await importCsv(csv.replace(/\n[^\n]*Brand New[^\n]*/, ''));
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await AuditEntry.countDocuments({ action: 'update', entity: 'parcel' })).toBe(2);
  });

  it('refuses, with nothing changed, a row that changes what an edit cannot', async () => {
    const parcel = await storedParcel('Fixed Fields');
    const before = await stored(parcel.id);
    const count = await Parcel.countDocuments();
    const [row] = await exported([parcel.id]);
    const edited = {
      ...row!,
      weight: '4',
      cost: '1',
      createdAt: '2020-01-01T00:00:00.000Z',
      actualDelivery: '2030-01-01T00:00:00.000Z',
    };
    const newRow = { recipientName: 'Not Yet', recipientAddress: '9 Wait St' };
    const { status, body } = await importCsv(toCsv([edited, newRow]));
    expect(status).toBe(400);
    const n = parcel.trackingNumber;
    expect(body.errors).toEqual([
      {
        row: 2,
        field: 'cost',
        message: `The cost of parcel ${n} cannot be changed by an import: leave the cell as exported or empty`,
      },
      {
        row: 2,
        field: 'createdAt',
        message: `The creation time of parcel ${n} cannot be changed by an import: leave the cell as exported or empty`,
      },
      {
        row: 2,
        field: 'actualDelivery',
        message: `The delivery time (it follows the status) of parcel ${n} cannot be changed by an import: leave the cell as exported or empty`,
      },
    ]);
    expect(body).toMatchObject({ imported: 0, created: 0, updated: 0 });
    expect(await stored(parcel.id)).toEqual(before);
    expect(await Parcel.countDocuments()).toBe(count);

    // Left empty, those cells keep what is stored; an empty status keeps the status too.
    const { body: fixed } = await importCsv(
      toCsv([{ ...row!, weight: '4', cost: '', createdAt: '', actualDelivery: '', status: '' }]),
    );
    expect(fixed).toMatchObject({ updated: 1, errors: [] });
    expect(await stored(parcel.id)).toEqual({ ...before, weight: 4 });
  });
});
