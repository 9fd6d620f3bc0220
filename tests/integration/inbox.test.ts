import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry } from '~/models/audit.server';
import { createContactMessage, createQuoteRequest, Inquiry } from '~/models/inquiry.server';
import { Subscription, subscribeToNewsletter } from '~/models/subscription.server';
import { loader as listLoader } from '~/routes/dashboard.inbox';
import { action as itemAction, loader as itemLoader } from '~/routes/dashboard.inbox_.$kind.$id';
import { loader as csvLoader } from '~/routes/dashboard.inbox_.subscribers[.]csv';
import { connectDb } from '~/lib/db.server';
import { createUser } from '../support/factories';

const context = { clientAddress: '10.7.7.7' };
let staff = '';
let viewer = '';

async function cookieFor(username: string, role: 'staff' | 'viewer') {
  return (await createUser(role, { username })).cookie;
}

async function run(
  fn: unknown,
  url: string,
  init: { cookie?: string; params?: object; body?: URLSearchParams } = {},
) {
  const request = new Request(`http://localhost${url}`, {
    method: init.body ? 'POST' : 'GET',
    headers: { Cookie: init.cookie ?? staff },
    body: init.body,
  });
  try {
    return await (fn as (a: unknown) => Promise<Response>)({
      request,
      params: init.params ?? {},
      context,
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

beforeAll(async () => {
  await connectDb();
  staff = await cookieFor('inbox-staff', 'staff');
  viewer = await cookieFor('inbox-viewer', 'viewer');
  for (let i = 0; i < 30; i++) {
    await createContactMessage({
      firstName: 'Carla',
      lastName: `Contact ${i}`,
      email: `carla${i}@example.com`,
      phone: undefined,
      subject: `Question ${i}`,
      message: `Hello, this is message ${i}.`,
    });
  }
  await createQuoteRequest({
    name: 'Quincy Quote',
    email: 'quincy@example.com',
    phone: '+1 555 0101',
    company: 'Q Co',
    plan: 'premium',
    shipmentsPerMonth: '11-50',
    origin: 'Austin',
    destination: 'Boston',
    message: 'Need a quote',
  } as never);
  await subscribeToNewsletter({ email: 'first@example.com', source: 'footer' });
  await subscribeToNewsletter({ email: '=cmd@example.com', source: '+home' });
});

describe('the inbox', () => {
  it('lists each kind newest first, 25 to a page, with the counts not handled', async () => {
    const res = await run(listLoader, '/dashboard/inbox');
    const data = await res.json();
    expect(data.kind).toBe('contact');
    expect(data.items).toHaveLength(25);
    expect(data.items[0]).toMatchObject({ name: 'Carla Contact 29', subject: 'Question 29' });
    expect(data.pagination).toMatchObject({ totalItems: 30, totalPages: 2 });
    expect(data.open).toEqual({ contact: 30, quote: 1, newsletter: 2 });
    const second = await (await run(listLoader, '/dashboard/inbox?page=2')).json();
    expect(second.items.at(-1).name).toBe('Carla Contact 0');
    const quotes = await (await run(listLoader, '/dashboard/inbox?kind=quote')).json();
    expect(quotes.items).toEqual([
      expect.objectContaining({
        name: 'Quincy Quote',
        subject: expect.stringMatching(/^Quote request/),
      }),
    ]);
    const subs = await (await run(listLoader, '/dashboard/inbox?kind=newsletter')).json();
    expect(subs.items.map((i: { email: string }) => i.email)).toEqual([
      '=cmd@example.com',
      'first@example.com',
    ]);
    // A bad query falls back to the defaults.
    expect((await (await run(listLoader, '/dashboard/inbox?kind=x&page=-1')).json()).kind).toBe(
      'contact',
    );
  });

  it('shows an item and marks it handled and unhandled, with audit entries', async () => {
    const quote = await Inquiry.findOne({ kind: 'quote' }).lean();
    const params = { kind: 'quote', id: String(quote!._id) };
    const url = `/dashboard/inbox/quote/${params.id}`;
    const shown = await (await run(itemLoader, url, { params })).json();
    expect(shown.item.fields).toEqual(
      expect.arrayContaining([
        { label: 'Company', value: 'Q Co' },
        { label: 'Plan', value: 'Premium ($19.99 per shipment)' },
      ]),
    );
    expect(shown.item.message).toBe('Need a quote');
    expect(shown.item.handledAt).toBeNull();

    const done = await run(itemAction, url, {
      params,
      body: new URLSearchParams({ handled: 'true' }),
    });
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe(url);
    const after = await (await run(itemLoader, url, { params })).json();
    expect(after.item).toMatchObject({ handledBy: 'inbox-staff', handledAt: expect.any(String) });
    const open = await (await run(listLoader, '/dashboard/inbox?kind=quote&state=open')).json();
    expect(open.items).toEqual([]);
    const handled = await (
      await run(listLoader, '/dashboard/inbox?kind=quote&state=handled')
    ).json();
    expect(handled.items).toHaveLength(1);

    await run(itemAction, url, { params, body: new URLSearchParams({ handled: 'false' }) });
    expect((await Inquiry.findById(params.id).lean())!.handledAt).toBeUndefined();
    const entries = await AuditEntry.find({ entity: 'inquiry', entityId: params.id })
      .sort({ at: 1 })
      .lean();
    expect(entries.map((e) => e.changes.find((c) => c.field === 'handled'))).toEqual([
      { field: 'handled', before: false, after: true },
      { field: 'handled', before: true, after: false },
    ]);

    const bad = await run(itemAction, url, {
      params,
      body: new URLSearchParams({ handled: 'maybe' }),
    });
    expect(bad.status).toBe(400);
    const missing = await run(itemLoader, '/dashboard/inbox/quote/0123456789abcdef01234567', {
      params: { kind: 'quote', id: '0123456789abcdef01234567' },
    });
    expect(missing.status).toBe(404);
    // A contact message is not found under the quote kind.
    const contact = await Inquiry.findOne({ kind: 'contact' }).lean();
    const wrongKind = await run(itemLoader, '/x', {
      params: { kind: 'quote', id: String(contact!._id) },
    });
    expect(wrongKind.status).toBe(404);
  });

  it('marks a subscription handled and exports subscribers as CSV, formulas escaped', async () => {
    const sub = await Subscription.findOne({ email: 'first@example.com' }).lean();
    const params = { kind: 'newsletter', id: String(sub!._id) };
    await run(itemAction, `/dashboard/inbox/newsletter/${params.id}`, {
      params,
      body: new URLSearchParams({ handled: 'true' }),
    });
    expect(await AuditEntry.countDocuments({ entity: 'subscription', entityId: params.id })).toBe(
      1,
    );
    const res = await run(csvLoader, '/dashboard/inbox/subscribers.csv');
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('email,source,subscribedAt,handledAt');
    expect(lines[1]).toMatch(/^first@example\.com,footer,\d{4}-.*Z,\d{4}-.*Z$/);
    expect(lines[2]).toMatch(/^'=cmd@example\.com,'\+home,\d{4}-.*Z,$/);
  });

  it('is for staff', async () => {
    expect((await run(listLoader, '/dashboard/inbox', { cookie: viewer })).status).toBe(403);
    expect(
      (await run(csvLoader, '/dashboard/inbox/subscribers.csv', { cookie: viewer })).status,
    ).toBe(403);
  });
});
