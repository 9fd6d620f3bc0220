import { beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { listAudit } from '~/models/audit.server';
import { Parcel } from '~/models/parcel.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { action, loader } from '~/routes/account.send_.bulk';
import { loader as batchLoader } from '~/routes/account.send_.bulk_.$batchId';
import { loader as labelsLoader } from '~/routes/account.send_.bulk_.$batchId_.labels[.]pdf';
import { loader as templateLoader } from '~/routes/account.send_.bulk.template[.]csv';
import { BULK_BOOKING_COLUMN_NAMES } from '~/schemas/bulk-booking';
import { callRoute } from '../support/api';
import { createAccount, createShipper } from '../support/factories';

const PAGE = '/account/send/bulk';
const HEADER =
  'recipientName,recipientAddress,recipientPostalCode,recipientCountry,weight,length,width,height,serviceType,reference';
const GOOD = [
  'Ada Lovelace,12 Analytical Way,62701,US,0.8,20,15,10,Standard,ORDER-1',
  'Grace Hopper,1 Navy Rd,10001,,0.5,10,10,10,Premium,ORDER-2',
  'Alan Turing,3 Bletchley Park,73000,FR,2,30,20,10,,ORDER-3',
];

let shipper: Awaited<ReturnType<typeof createShipper>>;
let account: Awaited<ReturnType<typeof createAccount>>;
let other: Awaited<ReturnType<typeof createShipper>>;

beforeAll(async () => {
  await connectDb();
  account = await createAccount();
  shipper = await createShipper(account, 'member');
  other = await createShipper(await createAccount());
});

/** The page's form, pasted (`csv`) or uploaded (`file`), as the browser posts it: multipart. */
function post(fields: Record<string, string | File>, cookie = shipper.cookie) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return callRoute(action, PAGE, { cookie, body });
}

type Row = { row: number; price: { amount: number } | null; problems: { field: string }[] };

describe('bulk booking in the portal', () => {
  it('prices each row from the pickup address, names each bad row’s fields, and refuses more than 500 rows', async () => {
    expect((await callRoute(loader, PAGE, { cookie: shipper.cookie })).status).toBe(200);
    const template = await callRoute(templateLoader, `${PAGE}/template.csv`, {
      cookie: shipper.cookie,
    });
    expect((await template.text()).split('\n')[0]).toBe(BULK_BOOKING_COLUMN_NAMES.join(','));

    const file = new File([[HEADER, ...GOOD].join('\n')], 'parcels.csv', { type: 'text/csv' });
    const good = await post({ intent: 'preview', file });
    expect(good.status).toBe(200);
    const { check } = await good.json();
    expect(check).toMatchObject({ ok: true, count: 3, total: { amount: 999 + 1999 + 4999 } });
    expect(check.rows.map((r: Row) => r.price?.amount)).toEqual([999, 1999, 4999]);

    const bad = await post({
      intent: 'preview',
      csv: [
        HEADER,
        GOOD[0],
        ',12 Analytical Way,62701,US,0.8,20,15,10,Standard,',
        'Jo Bloggs,5 Main St,62701,US,heavy,20,15,0,Express,',
        'Yuki Sato,1 Chome,100-0001,JP,1,10,10,10,Standard,',
        'Ed Inter,1 Rue,73000,FR,1,10,10,10,Overnight,',
      ].join('\n'),
    });
    expect(bad.status).toBe(400);
    const refused = (await bad.json()).check;
    expect(refused.ok).toBe(false);
    const fields = (row: Row) => row.problems.map((p) => p.field).sort();
    expect(refused.rows.map((r: Row) => [r.row, r.price?.amount ?? null, fields(r)])).toEqual([
      [2, 999, []],
      [3, null, ['recipientName']],
      [4, null, ['weight']],
      [5, null, ['recipientPostalCode']],
      [6, null, ['serviceType']],
    ]);
    expect(refused.rows[1].problems[0].message).toBe('Recipient name is required');

    const many = [HEADER, ...Array.from({ length: 501 }, () => GOOD[0])].join('\n');
    const tooMany = await (await post({ intent: 'preview', csv: many })).json();
    expect(tooMany.check.fileProblems).toEqual([
      'The file has 501 parcel rows; at most 500 can be booked at once',
    ]);
    expect(tooMany.check.ok).toBe(false);
  });

  it('books every row at its price on confirmation, or none, with one PDF of 4×6 in labels; another account finds neither', async () => {
    const { webhook } = await createWebhook(
      { url: 'https://hooks.example.test/bulk', events: ['parcel.created'], description: '' },
      account.id,
    );
    const csv = [HEADER, ...GOOD].join('\n');
    // A total other than the server's own (a tampered or stale preview) books nothing.
    const stale = await post({ intent: 'book', csv, count: '3', totalAmount: '3' });
    expect(stale.status).toBe(409);
    expect((await stale.json()).reply.error[''][0]).toMatch(/prices changed/);
    // A row with a problem stops the whole booking.
    const broken = await post({
      intent: 'book',
      csv: `${csv}\n,no name,62701,US,1,1,1,1,,`,
      count: '4',
      totalAmount: '7997',
    });
    expect(broken.status).toBe(409);
    expect(await Parcel.countDocuments({ accountId: account.id })).toBe(0);

    const booked = await post({ intent: 'book', csv, count: '3', totalAmount: '7997' });
    expect(booked.status).toBe(302);
    const location = booked.headers.get('Location')!;
    const batchId = location.split('/').pop()!;
    const stored = await Parcel.find({ accountId: account.id }).sort({ _id: 1 }).lean();
    expect(stored.map((p) => [p.price?.amount, p.serviceType, p.reference])).toEqual([
      [999, 'Standard', 'ORDER-1'],
      [1999, 'Premium', 'ORDER-2'],
      [4999, 'Standard', 'ORDER-3'],
    ]);
    expect(stored[1]).toMatchObject({
      paymentMethod: 'account',
      livemode: true,
      cost: 19.99,
      sender: { postalCode: '97201', country: 'US' },
      recipient: { country: 'US' },
    });
    const deliveries = await WebhookDelivery.find({ webhookId: webhook.id }).lean();
    expect(deliveries.map((d) => JSON.parse(d.payload).data.parcel.price.amount).sort()).toEqual([
      1999, 4999, 999,
    ]);
    const audit = await listAudit({ entity: 'parcel', action: 'create' } as never);
    expect(JSON.stringify(audit)).toContain(stored[0]!.trackingNumber);

    const page = await callRoute(batchLoader, location, {
      cookie: shipper.cookie,
      params: { batchId },
    });
    expect(
      (await page.json()).parcels.map((p: { trackingNumber: string }) => p.trackingNumber),
    ).toEqual(stored.map((p) => p.trackingNumber));
    const labels = await callRoute(labelsLoader, `${location}/labels.pdf`, {
      cookie: shipper.cookie,
      params: { batchId },
    });
    expect(labels.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await labels.arrayBuffer()).toString('latin1');
    expect(pdf.match(/\/Type \/Page\b(?!s)/g)).toHaveLength(3);
    expect(pdf.match(/\/MediaBox \[0 0 288 432\]/g)).toHaveLength(3);

    // Another account's shipper: the booking and its labels are not there.
    for (const [handler, url] of [
      [batchLoader, location],
      [labelsLoader, `${location}/labels.pdf`],
    ] as const) {
      const res = await callRoute(handler, url, { cookie: other.cookie, params: { batchId } });
      expect(res.status).toBe(404);
    }
  });
});
