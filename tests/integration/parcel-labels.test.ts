import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry } from '~/models/audit.server';
import { getParcel } from '~/models/parcel-reads.server';
import { Parcel, type SerializedParcel } from '~/models/parcel.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { loader as labelApi, action as labelApiAction } from '~/routes/api.parcels.$id.label[.]pdf';
import { loader as exportApi } from '~/routes/api.parcels.export[.]csv';
import { action as listAction } from '~/routes/dashboard.parcels';
import {
  action as bulkDeleteAction,
  loader as bulkDeleteLoader,
} from '~/routes/dashboard.parcels.delete';
import { loader as sheetLoader } from '~/routes/dashboard.parcels.labels[.]pdf';
import { labelFilename } from '~/schemas/label';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { renderLabelPdf } from '~/services/label-render.server';
import { printable } from '~/services/pdf-fonts.server';
import { trackingUrl } from '~/lib/urls.server';
import { createParcel } from '~/services/parcels.server';
import { callRoute, toastOf, expectToast } from '../support/api';
import { pdfBarcodes, pdfPageCount, pdfText } from '../support/pdf';
import { type SignedIn } from '../support/sign-in';
import { createUsers } from '../support/factories';

type Who = SignedIn;
let staff: Who;
let viewer: Who;
let parcel: SerializedParcel;

function newParcel(name: string, extra: Record<string, unknown> = {}) {
  return createParcel({
    sender: { name: 'Label Sender Co', email: '', phone: '+1 555 0100', address: '9 Dock Rd' },
    recipient: { name, email: '', phone: '+1 555 0199', address: '742 Evergreen Terrace' },
    weight: 2.5,
    dimensions: { length: 30, width: 20, height: 15 },
    serviceType: 'Express',
    priority: 'High',
    destinations: [
      {
        name,
        address: '742 Evergreen Terrace',
        city: 'Springfield',
        country: 'USA',
        postalCode: '49007',
      },
    ],
    estimatedDelivery: undefined,
    ...extra,
  } as never);
}

const pdfOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

beforeAll(async () => {
  await connectDb();
  ({ staff, viewer } = await createUsers(['staff', 'viewer'], 'label'));
  parcel = await newParcel('Jane Label');
});

/** The error toast of a bulk action that did nothing. */
const refused = (title: string, description: string) => ({ type: 'error', title, description });

/** A form of `fields` posted to the action as `who` (the staff user unless said). */
function post(action: unknown, url: string, fields: [string, string][], who: Who = staff) {
  return callRoute(action, url, {
    method: 'POST',
    headers: { Cookie: who.cookie },
    body: new URLSearchParams(fields),
  });
}

describe('GET /api/parcels/:id/label.pdf', () => {
  it('is a 4×6 in PDF whose barcode decodes to the tracking number', async () => {
    const res = await callRoute(labelApi, `/api/parcels/${parcel.id}/label.pdf`, {
      headers: { Authorization: `Bearer ${viewer.token}` },
      params: { id: parcel.id },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="${labelFilename(parcel.trackingNumber)}"`,
    );
    expect(res.headers.get('content-disposition')).toContain(parcel.trackingNumber);
    const pdf = await pdfOf(res);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(res.headers.get('content-length'))).toBe(pdf.length);
    expect(pdfPageCount(pdf)).toBe(1);
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 288 432]');

    // The embedded barcode image, read by ZXing: Code 128 of the tracking number.
    expect(pdfBarcodes(pdf, 'code128')).toEqual([parcel.trackingNumber]);
    // The QR code: the public tracking page of this parcel.
    expect(pdfBarcodes(pdf, 'qr')).toEqual([trackingUrl(parcel.trackingNumber)]);
    expect(trackingUrl(parcel.trackingNumber)).toMatch(
      new RegExp(`/track\\?number=${parcel.trackingNumber}$`),
    );

    const text = pdfText(pdf);
    for (const part of [
      'FROM',
      'Label Sender Co',
      '9 Dock Rd',
      'TO',
      'Jane Label',
      '742 Evergreen Terrace',
      'Springfield, 49007',
      'United States of America',
      'EXPRESS',
      '2.5 kg',
      '30×20×15',
      'High',
      parcel.trackingNumber,
      env.COMPANY_NAME,
    ])
      expect(text).toContain(part);
  });

  it("prints addresses in their country's order, and a stop under its own name", async () => {
    const us = await newParcel('Ada Recipient', {
      sender: {
        name: 'Berlin Sender',
        email: '',
        phone: '',
        address: 'Hauptstr. 5',
        city: 'Berlin',
        region: '',
        postalCode: '10115',
        country: 'Germany',
      },
      recipient: {
        name: 'Ada Recipient',
        email: '',
        phone: '',
        address: '1 Main St',
        city: 'Cambridge',
        region: 'MA',
        postalCode: '02139',
        country: 'US',
      },
      destinations: [],
    });
    const usText = pdfText(await renderLabelPdf(us));
    expect(usText).toContain('Hauptstr. 5\n10115 Berlin\nGermany');
    expect(usText).toContain(
      'Ada Recipient\n1 Main St\nCambridge, MA 02139\nUnited States of America',
    );
    expect(usText).not.toContain('02139 Cambridge');

    const stops = await newParcel('Ben Recipient', {
      destinations: [
        {
          name: 'Warehouse Two',
          address: '8 Quay St',
          city: 'London',
          country: 'GB',
          postalCode: 'SW1A 2AA',
        },
        {
          name: 'Ben Recipient',
          address: '742 Evergreen Terrace',
          city: 'Springfield',
          country: 'USA',
          postalCode: '49007',
        },
      ],
    });
    const stopText = pdfText(await renderLabelPdf(stops));
    expect(stopText).toContain('Warehouse Two\n8 Quay St\nLondon\nSW1A 2AA\nUnited Kingdom');
    expect(stopText).not.toContain('Ben Recipient');
  });

  it('is given to the staff session cookie too', async () => {
    const res = await callRoute(labelApi, `/api/parcels/${parcel.id}/label.pdf`, {
      headers: { Cookie: staff.cookie },
      params: { id: parcel.id },
    });
    expect(res.status).toBe(200);
    expect(pdfBarcodes(await pdfOf(res), 'code128')).toEqual([parcel.trackingNumber]);
  });

  it('answers 401, 404, 400 and 405 in JSON like the other parcel routes', async () => {
    const url = `/api/parcels/${parcel.id}/label.pdf`;
    const none = await callRoute(labelApi, url, { params: { id: parcel.id } });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'Authentication required' });

    const badToken = await callRoute(labelApi, url, {
      headers: { Authorization: 'Bearer not-a-token' },
      params: { id: parcel.id },
    });
    expect(badToken.status).toBe(401);

    const unknown = '0123456789abcdef01234567';
    const missing = await callRoute(labelApi, `/api/parcels/${unknown}/label.pdf`, {
      headers: { Authorization: `Bearer ${viewer.token}` },
      params: { id: unknown },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/application\/json/);
    expect(await missing.json()).toMatchObject({ error: 'Parcel not found' });

    const invalid = await callRoute(labelApi, '/api/parcels/nope/label.pdf', {
      headers: { Authorization: `Bearer ${viewer.token}` },
      params: { id: 'nope' },
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: 'Invalid parcel id' });

    const post = await callRoute(labelApiAction, url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${staff.token}` },
      params: { id: parcel.id },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('the label with awkward data', () => {
  it('keeps long names and addresses on one label, and prints other scripts without crashing', async () => {
    const long = await newParcel(
      `Zoë Łukasz 東京太郎 Москва ${'Wolfeschlegelsteinhausen'.repeat(8)}`,
      {
        sender: {
          name: `${'Very Long Sender Company Name '.repeat(10)}`,
          email: '',
          phone: '',
          address: 'Building 7, Floor 12, The Extraordinarily Long Business Park Avenue, '.repeat(
            7,
          ),
        },
      },
    );
    await Parcel.updateOne(
      { _id: long.id },
      {
        $set: {
          'destinations.0.address': 'Unit 99, Long Street Name '.repeat(19),
          'destinations.0.city': 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch',
        },
      },
    );
    const stored = (await getParcel(long.id))!;
    const pdf = await renderLabelPdf(stored);
    // Still one page: nothing ran off the label onto a second one.
    expect(pdfPageCount(pdf)).toBe(1);
    expect(pdfBarcodes(pdf, 'code128')).toEqual([stored.trackingNumber]);
    const text = pdfText(pdf);
    expect(text).toContain('Zoë Łukasz ???? Москва');
    expect(text).toContain('…');
  });

  it('reduces text to what the embedded fonts print', () => {
    expect(printable('Zoë Ørsted Œuvre €5 “quoted”')).toBe('Zoë Ørsted Œuvre €5 “quoted”');
    expect(printable('Őrség Ștefan Łódź Αθήνα Москва Ğüneş')).toBe(
      'Őrség Ștefan Łódź Αθήνα Москва Ğüneş',
    );
    // No glyph: the base letter when there is one, else '?'.
    expect(printable('東京 ｆｕｌｌ')).toBe('?? full');
    expect(printable('a\r\nb\tc\u200bd')).toBe('a\nb c d');
    expect(printable('lone \ud800 surrogate')).toBe('lone ? surrogate');
  });
});

describe('GET /dashboard/parcels/labels.pdf (the bulk sheet)', () => {
  const sheet = (query: string, who: Who | null = viewer) =>
    callRoute(sheetLoader, `/dashboard/parcels/labels.pdf${query}`, {
      headers: who ? { Cookie: who.cookie } : {},
    });

  it('prints two true-size labels a page on A4, or on Letter', async () => {
    const more = await Promise.all([newParcel('Sheet One'), newParcel('Sheet Two')]);
    const ids = [parcel.id, ...more.map((p) => p.id)];
    const res = await sheet(`?${new URLSearchParams(ids.map((id) => ['ids', id]))}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = await pdfOf(res);
    expect(pdfPageCount(pdf)).toBe(2);
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 841.89 595.28]');
    // Every label's barcode, and the labels in the order selected.
    const numbers = [parcel.trackingNumber, ...more.map((p) => p.trackingNumber)];
    expect(pdfBarcodes(pdf, 'code128').sort()).toEqual([...numbers].sort());
    const text = pdfText(pdf);
    const positions = numbers.map((n) => text.indexOf(n));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(positions[0]).toBeGreaterThanOrEqual(0);

    // Commas work as well as repeated ids; Letter on request; unknown ids are left out.
    const letter = await sheet(
      `?ids=${more[0]!.id},0123456789abcdef01234567&ids=${more[1]!.id}&paper=letter`,
    );
    expect(letter.status).toBe(200);
    const letterPdf = await pdfOf(letter);
    expect(pdfPageCount(letterPdf)).toBe(1);
    expect(letterPdf.toString('latin1')).toContain('/MediaBox [0 0 792 612]');
    expect(pdfBarcodes(letterPdf, 'code128').sort()).toEqual(
      more.map((p) => p.trackingNumber).sort(),
    );
  });

  it('refuses no selection, more than 100 parcels and unknown paper with a clear 400', async () => {
    const none = await sheet('?paper=a4&back=%3Fsearch%3Dx');
    expect(none.status).toBe(400);
    const page = await none.text();
    expect(page).toContain('Select at least one parcel.');
    expect(page).toContain('href="/dashboard/parcels?search=x"');

    const ids = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    const many = await sheet(`?ids=${ids.join(',')}`);
    expect(many.status).toBe(400);
    expect(await many.text()).toContain('Select at most 100 parcels at a time.');

    const paper = await sheet(`?ids=${parcel.id}&paper=a3`);
    expect(paper.status).toBe(400);
    expect(await paper.text()).toContain('The paper must be A4 or Letter.');
    const twoPapers = await sheet(`?ids=${parcel.id}&paper=a4&paper=letter`);
    expect(twoPapers.status).toBe(400);
    expect(await twoPapers.text()).toContain('The paper must be A4 or Letter.');

    const gone = await sheet('?ids=0123456789abcdef01234567');
    expect(gone.status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    const res = await sheet(`?ids=${parcel.id}`, null);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/management\/access\?redirectTo=/);
  });
});

describe('bulk actions on the parcel table', () => {
  it('changes the status of the selected parcels as single edits do: audit entries and webhooks', async () => {
    const [a, b, c] = await Promise.all([
      newParcel('Bulk A'),
      newParcel('Bulk B'),
      newParcel('Bulk C'),
    ]);
    await createWebhook({
      url: 'https://hooks.example.test/bulk',
      events: ['parcel.status_changed'],
      description: '',
    });
    const res = await post(listAction, '/dashboard/parcels?search=Bulk&page=1', [
      ['intent', 'status'],
      ['ids', a!.id],
      ['ids', b!.id],
      ['newStatus', 'In Transit'],
      ['paper', 'a4'],
      ['back', ''],
    ]);
    await expectToast(
      res,
      {
        type: 'success',
        title: 'Status changed for 2 parcels',
      },
      '/dashboard/parcels?search=Bulk&page=1',
    );
    expect((await getParcel(a!.id))!.status).toBe('In Transit');
    expect((await getParcel(b!.id))!.status).toBe('In Transit');
    expect((await getParcel(c!.id))!.status).toBe('Pending');

    const entries = await AuditEntry.find({ entityId: { $in: [a!.id, b!.id] } }).lean();
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry).toMatchObject({ action: 'update', entity: 'parcel', via: 'page' });
      expect(entry.actor?.username).toBe('label-staff');
      expect(entry.changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'status', before: 'Pending', after: 'In Transit' }),
        ]),
      );
    }
    const deliveries = await WebhookDelivery.find({ type: 'parcel.status_changed' }).lean();
    expect(deliveries.map((d) => JSON.parse(d.payload).data.parcel.trackingNumber).sort()).toEqual(
      [a!.trackingNumber, b!.trackingNumber].sort(),
    );

    // Once more: both are already In Transit, so nothing changes and nothing is recorded.
    const again = await post(listAction, '/dashboard/parcels', [
      ['intent', 'status'],
      ['ids', `${a!.id},${b!.id}`],
      ['newStatus', 'In Transit'],
    ]);
    expect(await toastOf(again)).toMatchObject({ title: 'No status changed' });
    expect(await AuditEntry.countDocuments({ entityId: { $in: [a!.id, b!.id] } })).toBe(2);
  });

  it('says what is missing instead of changing anything', async () => {
    const noIds = await post(listAction, '/dashboard/parcels', [
      ['intent', 'status'],
      ['newStatus', 'Delivered'],
    ]);
    expect(await toastOf(noIds)).toEqual(refused('Nothing changed', 'Select at least one parcel.'));
    const noStatus = await post(listAction, '/dashboard/parcels', [
      ['intent', 'status'],
      ['ids', parcel.id],
      ['newStatus', ''],
    ]);
    expect(await toastOf(noStatus)).toMatchObject({ description: 'Choose the new status.' });
    expect((await getParcel(parcel.id))!.status).toBe('Pending');
  });

  it('changes and deletes nothing for a selection that is not one of parcels', async () => {
    const target = await newParcel('Hostile Target');
    // An unknown action is named first, whatever else is wrong.
    const unknown = await post(listAction, '/dashboard/parcels', [
      ['intent', 'delete'],
      ['ids', target.id],
    ]);
    expect(await toastOf(unknown)).toEqual(refused('Nothing changed', 'Unknown action.'));
    const notIds = await post(listAction, '/dashboard/parcels?page=2', [
      ['intent', 'status'],
      ['ids', `${target.id},{"$ne":null}`],
      ['newStatus', 'Delivered'],
    ]);
    expect(notIds.headers.get('location')).toBe('/dashboard/parcels?page=2');
    expect(await toastOf(notIds)).toMatchObject({ description: 'Not a parcel id.' });
    const badStatus = await post(listAction, '/dashboard/parcels', [
      ['intent', 'status'],
      ['ids', target.id],
      ['newStatus', 'Lost'],
    ]);
    expect(await toastOf(badStatus)).toMatchObject({
      description: expect.stringMatching(/^Status must be one of: Pending, /),
    });
    const tooMany = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    const many = await post(bulkDeleteAction, '/dashboard/parcels/delete', [
      ['ids', tooMany.join(',')],
      ['back', '?search=Hostile'],
      ['back', '?search=Second'],
    ]);
    expect(many.headers.get('location')).toBe('/dashboard/parcels?search=Hostile');
    expect(await toastOf(many)).toEqual(
      refused('Nothing deleted', 'Select at most 100 parcels at a time.'),
    );
    const confirm = await callRoute(
      bulkDeleteLoader,
      `/dashboard/parcels/delete?ids=${target.id}&ids=nope`,
      { headers: { Cookie: staff.cookie } },
    );
    await expectToast(confirm, { description: 'Not a parcel id.' });
    const stored = await getParcel(target.id);
    expect(stored?.status).toBe('Pending');
    expect(await AuditEntry.countDocuments({ entityId: target.id })).toBe(0);
  });

  it('deletes the selected parcels after a confirmation that lists them', async () => {
    const [a, b, keep] = await Promise.all([
      newParcel('Gone A'),
      newParcel('Gone B'),
      newParcel('Kept C'),
    ]);
    const query = new URLSearchParams([
      ['ids', a!.id],
      ['ids', b!.id],
      ['back', '?search=Gone&evil=https://x.example'],
    ]);
    const confirm = await callRoute(bulkDeleteLoader, `/dashboard/parcels/delete?${query}`, {
      headers: { Cookie: staff.cookie },
    });
    expect(confirm.status).toBe(200);
    const data = await confirm.json();
    expect(data.back).toBe('/dashboard/parcels?search=Gone');
    expect(data.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([
      a!.trackingNumber,
      b!.trackingNumber,
    ]);
    // Nothing is deleted by looking at the confirmation.
    expect(await Parcel.countDocuments({ _id: { $in: [a!.id, b!.id] } })).toBe(2);

    const res = await post(bulkDeleteAction, `/dashboard/parcels/delete?${query}`, [
      ['back', '?search=Gone'],
      ['ids', a!.id],
      ['ids', b!.id],
    ]);
    await expectToast(
      res,
      { type: 'success', title: '2 parcels deleted' },
      '/dashboard/parcels?search=Gone',
    );
    expect(await Parcel.countDocuments({ _id: { $in: [a!.id, b!.id] } })).toBe(0);
    expect(await getParcel(keep!.id)).not.toBeNull();
    const entries = await AuditEntry.find({ action: 'delete', entityId: { $in: [a!.id, b!.id] } });
    expect(entries).toHaveLength(2);

    // The confirmation of parcels that are gone goes back to the list and says so.
    const stale = await callRoute(bulkDeleteLoader, `/dashboard/parcels/delete?ids=${a!.id}`, {
      headers: { Cookie: staff.cookie },
    });
    await expectToast(stale, {
      type: 'error',
      description: 'The selected parcels no longer exist.',
    });
  });

  it('lets viewers print labels and export, and nothing else', async () => {
    const target = await newParcel('Viewer Target');
    const status = await post(
      listAction,
      '/dashboard/parcels',
      [
        ['intent', 'status'],
        ['ids', target.id],
        ['newStatus', 'Delivered'],
      ],
      viewer,
    );
    expect(status.status).toBe(403);
    const confirm = await callRoute(
      bulkDeleteLoader,
      `/dashboard/parcels/delete?ids=${target.id}`,
      {
        headers: { Cookie: viewer.cookie },
      },
    );
    expect(confirm.status).toBe(403);
    const del = await post(
      bulkDeleteAction,
      '/dashboard/parcels/delete',
      [['ids', target.id]],
      viewer,
    );
    expect(del.status).toBe(403);
    const stored = await getParcel(target.id);
    expect(stored?.status).toBe('Pending');

    const sheet = await callRoute(sheetLoader, `/dashboard/parcels/labels.pdf?ids=${target.id}`, {
      headers: { Cookie: viewer.cookie },
    });
    expect(sheet.status).toBe(200);
  });

  it('exports only the selected parcels as CSV', async () => {
    const [a, b] = await Promise.all([newParcel('Export A'), newParcel('Export B')]);
    await newParcel('Export C');
    // What the bulk form sends: the ids repeated, and its other fields, which the export ignores.
    const res = await callRoute(
      exportApi,
      `/api/parcels/export.csv?back=&paper=a4&newStatus=&ids=${a!.id}&ids=${b!.id}`,
      { headers: { Cookie: viewer.cookie } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/parcels-selected-/);
    const rows = (await res.text()).trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(
      rows
        .slice(1)
        .map((r) => r.split(',')[0])
        .sort(),
    ).toEqual([a!.trackingNumber, b!.trackingNumber].sort());

    const commas = await callRoute(exportApi, `/api/parcels/export.csv?ids=${a!.id},${b!.id}`, {
      headers: { Authorization: `Bearer ${viewer.token}` },
    });
    expect((await commas.text()).trim().split('\n')).toHaveLength(3);

    const bad = await callRoute(exportApi, '/api/parcels/export.csv?ids=nope', {
      headers: { Authorization: `Bearer ${viewer.token}` },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).details)).toEqual(['ids.0']);
  });
});
