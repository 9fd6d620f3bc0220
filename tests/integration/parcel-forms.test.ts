import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Parcel } from '~/models/parcel.server';
import { loader as listLoader } from '~/routes/dashboard.parcels';
import { action as deleteAction } from '~/routes/dashboard.parcels.$parcelId.delete';
import {
  action as editAction,
  loader as editLoader,
} from '~/routes/dashboard.parcels.$parcelId.edit';
import { CHANGED_MEANWHILE } from '~/http/parcel-pages.server';
import { updateParcel } from '~/services/parcels.server';
import { action as createAction } from '~/routes/dashboard.parcels.new';
import { connectDb } from '~/lib/db.server';
import { createUser } from '../support/factories';
import { toastOf, expectToast } from '../support/api';

const context = { clientAddress: '10.1.2.3' };
let sessionCookie = '';

beforeAll(async () => {
  await connectDb();
  ({ cookie: sessionCookie } = await createUser('staff', { username: 'parcel-forms' }));
});

function post(path: string, fields: Record<string, string>, signedIn = true) {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: signedIn ? { Cookie: sessionCookie } : {},
    body: new URLSearchParams(fields),
  });
}

/** conform's answer to a submission that was not saved. */
type FormReply = {
  status?: 'error';
  initialValue: { destinations?: unknown[]; weight?: string };
  error?: Record<string, string[]>;
};

/** What conform's Add and Remove buttons submit. */
const insertDestination = JSON.stringify({
  type: 'insert',
  payload: { name: 'destinations', defaultValue: { country: 'USA' } },
});
const removeDestination = (index: number) =>
  JSON.stringify({ type: 'remove', payload: { name: 'destinations', index } });

const baseFields = {
  'sender.name': 'Form Sender',
  'recipient.name': 'Form Recipient',
  'recipient.address': '5 Form Street',
  weight: 'heavy',
  'dimensions.length': '12',
  'dimensions.width': '',
  'dimensions.height': '3.5',
  serviceType: 'Overnight',
  priority: 'Low',
  estimatedDelivery: '',
};

/** The new-parcel form submitted with `fields` over the base ones. */
function submitNew(fields: Record<string, string>) {
  return createAction({
    request: post('/dashboard/parcels/new', { ...baseFields, ...fields }),
    params: {},
    context,
  } as never);
}

describe('create parcel form', () => {
  it('adds and removes destination rows without storing anything', async () => {
    const before = await Parcel.countDocuments();
    const add = await submitNew({
      'recipient.name': '',
      'destinations[0].name': 'Kept',
      'destinations[0].country': 'USA',
      __intent__: insertDestination,
    });
    // Not a failed submission: the form comes back with one row more, and no errors yet.
    expect(add.status).toBe(200);
    const added = (await add.json()) as FormReply;
    expect(added.status).toBeUndefined();
    expect(added.initialValue.destinations).toEqual([
      { name: 'Kept', country: 'USA' },
      { country: 'USA' },
    ]);
    expect(added.initialValue.weight).toBe('heavy');
    const remove = await submitNew({
      'destinations[0].name': 'Gone',
      'destinations[1].name': 'Kept',
      __intent__: removeDestination(0),
    });
    expect(remove.status).toBe(200);
    const removed = (await remove.json()) as FormReply;
    expect(removed.initialValue.destinations).toEqual([{ name: 'Kept' }]);
    expect(await Parcel.countDocuments()).toBe(before);
  });

  it('returns field errors with status 400 and stores nothing', async () => {
    const before = await Parcel.countDocuments();
    const res = await submitNew({ 'recipient.name': '', 'sender.email': 'nope' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as FormReply;
    expect(body.status).toBe('error');
    expect(body.error).toEqual({
      'recipient.name': ['Recipient name is required'],
      'sender.email': ['Invalid email address'],
    });
    expect(body.initialValue).toMatchObject({ sender: { name: 'Form Sender', email: 'nope' } });
    expect(await Parcel.countDocuments()).toBe(before);
  });

  it('creates the parcel (unparseable numbers as 0) and redirects to the list with a toast', async () => {
    const res = await createAction({
      request: post('/dashboard/parcels/new?search=Form', { ...baseFields }),
      params: {},
      context,
    } as never);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/dashboard/parcels?search=Form');
    const stored = await Parcel.findOne({ 'sender.name': 'Form Sender' }).lean();
    expect(stored).toMatchObject({
      status: 'Pending',
      cost: 25.99,
      weight: 0,
      dimensions: { length: 12, width: 0, height: 3.5 },
      serviceType: 'Overnight',
      priority: 'Low',
    });
    expect(stored!.destinations).toHaveLength(1);
    expect(stored!.destinations[0]).toMatchObject({
      name: 'Form Recipient',
      address: '5 Form Street',
      country: 'USA',
    });
    expect(await toastOf(res)).toEqual({
      type: 'success',
      title: 'Parcel created successfully',
      description: `Tracking number: ${stored!.trackingNumber}`,
    });
  });

  it.each([
    [{ from: '14:00', until: '' }, { 'deliveryWindow.until': ['Enter when the window ends'] }],
    [{ from: '', until: '16:00' }, { 'deliveryWindow.from': ['Enter when the window starts'] }],
    [
      { from: '16:00', until: '14:00' },
      { 'deliveryWindow.until': ['The window must end after it starts'] },
    ],
    [{ from: '2 pm', until: '16:00' }, { 'deliveryWindow.from': ['Enter a time as HH:MM'] }],
  ])('refuses the delivery window %j with a field error', async (window, errors) => {
    const before = await Parcel.countDocuments();
    const res = await submitNew({
      'deliveryWindow.from': window.from,
      'deliveryWindow.until': window.until,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as FormReply).error).toEqual(errors);
    expect(await Parcel.countDocuments()).toBe(before);
  });

  it('sends a signed-out visitor to the login page', async () => {
    const before = await Parcel.countDocuments();
    const res = await createAction({
      request: post('/dashboard/parcels/new', { ...baseFields }, false),
      params: {},
      context,
    } as never).catch((thrown: Response) => thrown);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toMatch(/^\/management\/access/);
    expect(await Parcel.countDocuments()).toBe(before);
  });
});

/** The edit form of a parcel saved with `fields` over the base ones. */
function saveEdit(parcelId: string, fields: Record<string, string>) {
  return editAction({
    request: post(`/dashboard/parcels/${parcelId}/edit`, { ...baseFields, ...fields }),
    params: { parcelId },
    context,
  } as never);
}

describe('edit and delete parcel forms', () => {
  it('updates the status and records the delivery', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'EDT000000001',
      recipient: { name: 'E', address: 'A' },
    });
    const res = await saveEdit(parcel.id, { weight: '7.25', status: 'Delivered' });
    expect(res.status).toBe(302);
    expect((await toastOf(res))?.title).toBe('Parcel updated successfully');
    const stored = await Parcel.findById(parcel.id).lean();
    expect(stored?.status).toBe('Delivered');
    expect(stored?.weight).toBe(7.25);
    expect(stored?.actualDelivery).toBeInstanceOf(Date);
  });

  it('sets the delivery window as times on the estimated day in the company zone, and clears it', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'WIN000000003',
      recipient: { name: 'E', address: 'A' },
      estimatedDelivery: new Date('2030-07-02T00:00:00Z'),
    });
    const edit = (fields: Record<string, string>) => saveEdit(parcel.id, fields);
    // Kept day (the date left empty); New York is four hours behind UTC in July.
    let res = await edit({ 'deliveryWindow.from': '09:30', 'deliveryWindow.until': '13:00' });
    expect(res.status).toBe(302);
    expect((await Parcel.findById(parcel.id).lean())?.deliveryWindow).toEqual({
      from: new Date('2030-07-02T13:30:00Z'),
      until: new Date('2030-07-02T17:00:00Z'),
    });
    res = await edit({ 'deliveryWindow.from': '', 'deliveryWindow.until': '' });
    expect(res.status).toBe(302);
    expect((await Parcel.findById(parcel.id).lean())?.deliveryWindow).toBeUndefined();
  });

  it('says so when someone else changed the parcel meanwhile, and starts again from it instead of overwriting', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'VER000000003',
      recipient: { name: 'E', address: 'A' },
      weight: 1,
    });
    const load = async () =>
      (await (
        await editLoader({
          request: new Request(`http://localhost/dashboard/parcels/${parcel.id}/edit`, {
            headers: { Cookie: sessionCookie },
          }),
          params: { parcelId: parcel.id },
          context,
        } as never)
      ).json()) as { parcel: { weight: number }; version: number };
    const opened = await load();
    // Someone else saves first (the API, another tab).
    await updateParcel(parcel.id, { weight: 4 } as never);
    const res = await saveEdit(parcel.id, { weight: '9', version: String(opened.version) });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ changedMeanwhile: CHANGED_MEANWHILE });
    expect((await Parcel.findById(parcel.id).lean())?.weight).toBe(4);
    // The form, loaded again, holds the other change and its version: saving it now works.
    const reloaded = await load();
    expect(reloaded.parcel.weight).toBe(4);
    expect(reloaded.version).toBeGreaterThan(opened.version);
    const again = await saveEdit(parcel.id, { weight: '9', version: String(reloaded.version) });
    expect(again.status).toBe(302);
    expect((await Parcel.findById(parcel.id).lean())?.weight).toBe(9);
  });

  it('refuses an unknown status with a field error', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'EDT000000002',
      recipient: { name: 'E', address: 'A' },
    });
    const res = await saveEdit(parcel.id, { status: 'Lost' });
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as FormReply).error ?? {})).toEqual(['status']);
    expect((await Parcel.findById(parcel.id).lean())?.status).toBe('Pending');
  });

  it('deletes a parcel, and reports one that is already gone', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'DEL000000001',
      recipient: { name: 'D', address: 'A' },
    });
    const res = await deleteAction({
      request: post(`/dashboard/parcels/${parcel.id}/delete`, {}),
      params: { parcelId: parcel.id },
      context,
    } as never);
    await expectToast(res, {
      type: 'success',
      title: 'Parcel deleted successfully',
    });
    expect(await Parcel.countDocuments({ _id: parcel.id })).toBe(0);
    const again = await deleteAction({
      request: post(`/dashboard/parcels/${parcel.id}/delete`, {}),
      params: { parcelId: parcel.id },
      context,
    } as never);
    expect(await toastOf(again)).toMatchObject({ type: 'error', title: 'Error deleting parcel' });
  });
});

describe('parcel list page', () => {
  it('loads the filtered list, and says so when it cannot', async () => {
    const request = () =>
      new Request('http://localhost/dashboard/parcels?search=EDT&page=abc', {
        headers: { Cookie: sessionCookie },
      });
    const res = await listLoader({ request: request(), params: {}, context } as never);
    const data = (await res.json()) as {
      parcels: Array<{ trackingNumber: string }>;
      loadFailed: boolean;
      search: string;
    };
    expect(data.loadFailed).toBe(false);
    expect(data.search).toBe('EDT');
    expect(data.parcels.map((p) => p.trackingNumber).sort()).toEqual([
      'EDT000000001',
      'EDT000000002',
    ]);

    const failure = vi
      .spyOn(Parcel, 'countDocuments')
      .mockRejectedValueOnce(new Error('database down'));
    vi.mocked(console.error).mockImplementationOnce(() => {});
    const failed = await listLoader({ request: request(), params: {}, context } as never);
    failure.mockRestore();
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as { loadFailed: boolean }).loadFailed).toBe(true);
    // The loader logs the failure on purpose.
    vi.mocked(console.error).mockClear();
  });
});
