import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry } from '~/models/audit.server';
import { Parcel } from '~/models/parcel.server';
import { PendingImport } from '~/models/pending-import.server';
import { action, loader } from '~/routes/dashboard.parcels_.import';
import { loader as templateLoader } from '~/routes/dashboard.parcels_.import.template[.]csv';
import { connectDb } from '~/lib/db.server';
import { PARCEL_CSV_COLUMNS } from '~/services/parcel-csv.server';
import { flashStorage } from '~/lib/cookies.server';
import { createUser } from '../support/factories';

const context = { clientAddress: '10.4.5.6' };
const PAGE = 'http://localhost/dashboard/parcels/import';

async function cookieFor(username: string, role: 'staff' | 'viewer') {
  return (await createUser(role, { username })).cookie;
}

let staff = '';
let otherStaff = '';
let viewer = '';

beforeAll(async () => {
  await connectDb();
  staff = await cookieFor('import-page', 'staff');
  otherStaff = await cookieFor('import-page-2', 'staff');
  viewer = await cookieFor('import-page-viewer', 'viewer');
});

function upload(csv: string | Uint8Array<ArrayBuffer>, cookie = staff, name = 'parcels.csv') {
  const form = new FormData();
  form.set('intent', 'upload');
  form.set('file', new File([csv], name, { type: 'text/csv' }));
  return new Request(PAGE, { method: 'POST', headers: { Cookie: cookie }, body: form });
}

function confirm(id: string, cookie = staff) {
  return new Request(PAGE, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: new URLSearchParams({ intent: 'confirm', id }),
  });
}

async function run(fn: typeof action | typeof loader, request: Request): Promise<Response> {
  try {
    return await fn({ request, params: {}, context } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

type ActionBody = {
  reply: { error?: Record<string, string[] | null> } | null;
  check: {
    fileName: string;
    rows: number;
    errorCount: number;
    errors: Array<{ row: number; field: string | null; message: string }>;
    preview: Array<{ row: number; recipientName: string }>;
  } | null;
};

const csv = (rows: string[]) => ['recipientName,recipientAddress,weight', ...rows].join('\n');

describe('the dashboard import page', () => {
  it('shows every error of a bad file with a preview, keeps nothing and offers no import', async () => {
    const before = await Parcel.countDocuments();
    const res = await run(action, upload(csv(['Ann,1 St,1', ',2 St,x', 'Cy,3 St,2'])));
    expect(res.status).toBe(400);
    const body = (await res.json()) as ActionBody;
    expect(body.check).toMatchObject({ fileName: 'parcels.csv', rows: 3, errorCount: 2 });
    expect(body.check!.errors).toEqual([
      { row: 3, field: 'recipientName', message: 'Recipient name is required' },
      { row: 3, field: 'weight', message: 'Weight must be a number' },
    ]);
    expect(body.check!.preview.map((r) => r.recipientName)).toEqual(['Ann', '', 'Cy']);
    expect(await PendingImport.countDocuments()).toBe(0);
    expect(await Parcel.countDocuments()).toBe(before);
  });

  it('holds a good file for its uploader, previews it, then imports it all on confirmation', async () => {
    const res = await run(action, upload(csv(['Page One,1 St,1', 'Page Two,2 St,2'])));
    expect(res.status).toBe(302);
    const location = res.headers.get('Location')!;
    const id = new URL(location, PAGE).searchParams.get('id')!;
    expect(id).toMatch(/^[a-f\d]{32}$/);

    const page = await run(loader, new Request(`${PAGE}?id=${id}`, { headers: { Cookie: staff } }));
    const data = await page.json();
    expect(data.pending).toMatchObject({ id, fileName: 'parcels.csv', rows: 2 });
    expect(data.pending.preview.map((r: { recipientName: string }) => r.recipientName)).toEqual([
      'Page One',
      'Page Two',
    ]);
    // Another staff member cannot see or confirm it.
    const other = await run(
      loader,
      new Request(`${PAGE}?id=${id}`, { headers: { Cookie: otherStaff } }),
    );
    expect((await other.json()).pending).toBeNull();
    expect((await run(action, confirm(id, otherStaff))).status).toBe(409);

    const before = await Parcel.countDocuments();
    const done = await run(action, confirm(id));
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/dashboard/parcels');
    const flash = await flashStorage.getSession(done.headers.get('Set-Cookie')!.split(';')[0]);
    expect(flash.get('toast')).toMatchObject({ type: 'success', title: 'Imported 2 parcels' });
    expect(await Parcel.countDocuments()).toBe(before + 2);
    expect(await AuditEntry.countDocuments({ action: 'import', via: 'page' })).toBe(2);

    // Confirmed once only.
    expect((await run(action, confirm(id))).status).toBe(409);
    expect(await Parcel.countDocuments()).toBe(before + 2);
  });

  it('imports nothing on confirmation when the parcels stored meanwhile change what the file does', async () => {
    const file = [
      'trackingNumber,recipientName,recipientAddress',
      'RAC000000001,Race One,1 St',
      'RAC000000002,Race Two,2 St',
    ].join('\n');
    const res = await run(action, upload(file));
    const id = new URL(res.headers.get('Location')!, PAGE).searchParams.get('id')!;
    await Parcel.create({ trackingNumber: 'RAC000000002', recipient: { name: 'Meanwhile' } });
    const done = await run(action, confirm(id));
    expect(done.status).toBe(400);
    const body = (await done.json()) as ActionBody;
    // Previewed as two new parcels, the file would now update the one stored meanwhile.
    expect(body.check!.errors).toEqual([
      {
        row: 1,
        field: null,
        message:
          'The stored parcels have changed since the preview: the file now creates 1, updates 1 and leaves 0 unchanged. Upload it again to see the changes',
      },
    ]);
    expect(await Parcel.countDocuments({ trackingNumber: 'RAC000000001' })).toBe(0);
    expect(await Parcel.findOne({ trackingNumber: 'RAC000000002' }).lean()).toMatchObject({
      recipient: { name: 'Meanwhile' },
    });
  });

  it('previews each row as New, Update with its changes, or Unchanged, then updates on confirmation', async () => {
    const [kept, changed] = await Parcel.create([
      { trackingNumber: 'UPD473124829', recipient: { name: 'Kept', address: '1 St' }, weight: 1 },
      {
        trackingNumber: 'UPD473124830',
        recipient: { name: 'Changed', address: '2 St' },
        weight: 1,
        estimatedDelivery: new Date('2031-01-10T00:00:00Z'),
      },
    ]);
    const file = [
      'trackingNumber,recipientName,recipientAddress,weight,estimatedDelivery',
      'upd473124829,Kept,1 St,1,',
      'UPD473124830,Changed,2 Other St,2,2031-02-03',
      ',Added,3 St,1,',
      'UPD473124820,Typo,4 St,1,',
    ].join('\n');
    const res = await run(action, upload(file));
    expect(res.status).toBe(302);
    const id = new URL(res.headers.get('Location')!, PAGE).searchParams.get('id')!;
    const page = await run(loader, new Request(`${PAGE}?id=${id}`, { headers: { Cookie: staff } }));
    const { pending } = await page.json();
    expect(pending).toMatchObject({ rows: 4, created: 2, updated: 1, unchanged: 1 });
    expect(
      pending.preview.map((r: { action: string; mistyped?: boolean }) => [r.action, r.mistyped]),
    ).toEqual([
      ['Unchanged', undefined],
      ['Update', undefined],
      ['New', undefined],
      // Created as before, but the preview says its check digit fails.
      ['New', true],
    ]);
    expect(pending.preview[1].changes).toEqual([
      {
        field: 'estimatedDelivery',
        before: '2031-01-10T00:00:00.000Z',
        after: '2031-02-03T00:00:00.000Z',
      },
      { field: 'recipient.address', before: '2 St', after: '2 Other St' },
      { field: 'weight', before: 1, after: 2 },
    ]);

    const done = await run(action, confirm(id));
    expect(done.status).toBe(302);
    const flash = await flashStorage.getSession(done.headers.get('Set-Cookie')!.split(';')[0]);
    expect(flash.get('toast')).toMatchObject({
      title: 'Imported 3 parcels',
      description: 'parcels.csv: 2 new, 1 updated, 1 unchanged',
    });
    expect(await Parcel.findById(changed!._id).lean()).toMatchObject({
      trackingNumber: 'UPD473124830',
      weight: 2,
      recipient: { address: '2 Other St' },
      estimatedDelivery: new Date('2031-02-03T00:00:00Z'),
    });
    expect(await AuditEntry.findOne({ entityId: String(changed!._id) }).lean()).toMatchObject({
      action: 'update',
      via: 'page',
      address: '10.4.5.6',
    });
    expect(await AuditEntry.countDocuments({ entityId: String(kept!._id) })).toBe(0);
  });

  it('refuses no file, an empty file, a file that is not UTF-8, and viewers', async () => {
    const none = new FormData();
    none.set('intent', 'upload');
    const missing = await run(
      action,
      new Request(PAGE, { method: 'POST', headers: { Cookie: staff }, body: none }),
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ActionBody).reply!.error!.file).toEqual([
      'Choose a CSV file to upload',
    ]);
    const headerOnly = await run(action, upload('recipientName,recipientAddress\n'));
    expect(((await headerOnly.json()) as ActionBody).reply!.error!.file).toEqual([
      'The file has no parcel rows under its header row',
    ]);
    const latin1 = await run(action, upload(new Uint8Array([0x61, 0xe9, 0x0a])));
    expect(((await latin1.json()) as ActionBody).reply!.error!.file![0]).toMatch(/UTF-8/);
    expect((await run(action, upload(csv(['A,B,1']), viewer))).status).toBe(403);
    expect((await run(loader, new Request(PAGE, { headers: { Cookie: viewer } }))).status).toBe(
      403,
    );
  });

  it('serves the template with the export header', async () => {
    const res = await run(
      templateLoader,
      new Request(`${PAGE}/template.csv`, { headers: { Cookie: staff } }),
    );
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect((await res.text()).split('\n')[0]).toBe(PARCEL_CSV_COLUMNS.join(','));
  });
});
