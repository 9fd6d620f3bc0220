import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as webhooksAction, loader as webhooksLoader } from '~/routes/api.webhooks';
import { loader as webhookLoader } from '~/routes/api.webhooks.$id';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { loader as parcelLoader } from '~/routes/api.parcels.$id';
import { action as advanceAction } from '~/routes/api.test.parcels.$id.advance';
import { loader as proofsLoader } from '~/routes/api.parcels.$id.proof-of-delivery';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { WebhookDelivery } from '~/models/webhook.server';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { listTestMessages } from '~/models/test-message.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { callRoute } from '../support/api';
import { attemptDueJob } from '../support/jobs';
import { createAccount, createAccountKey, createUser, type TestUser } from '../support/factories';

let admin: TestUser;
const allowPrivate = env.WEBHOOKS_ALLOW_PRIVATE;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  admin = await createUser('admin');
});

afterAll(async () => {
  env.WEBHOOKS_ALLOW_PRIVATE = allowPrivate;
  await disconnectDb();
});

const ALL = [
  'parcel.created',
  'parcel.status_changed',
  'parcel.delivered',
  'tracking_event.created',
];

async function addWebhook(auth: Record<string, string>, path: string) {
  const res = await callRoute(webhooksAction, '/api/webhooks', {
    headers: auth,
    body: { url: `http://127.0.0.1:9/${path}`, events: ALL },
  });
  expect(res.status).toBe(201);
  return (await res.json()).webhook as { id: string; accountId: string | null };
}

/** The events a webhook was sent, as their payloads. */
async function received(webhookId: string) {
  const deliveries = await WebhookDelivery.find({ webhookId }).sort({ _id: 1 }).lean();
  return deliveries.map((d) => JSON.parse(d.payload));
}

const parcelBody = (name: string) => ({
  recipient: { name, address: '12 Analytical Way', email: `${name.toLowerCase()}@example.com` },
});

describe("an account's webhooks and test mode", () => {
  it("hear only the account's own parcels, live and test; a test parcel is advanced to Delivered with webhooks and e-mails no one", async () => {
    const [a, b] = [await createAccount(), await createAccount()];
    const keyA = (await createAccountKey(a, admin)).auth;
    const testKeyA = (await createAccountKey(a, admin, { mode: 'test' })).auth;
    const keyB = (await createAccountKey(b, admin)).auth;

    const hookA = await addWebhook(keyA, 'a');
    const hookB = await addWebhook(keyB, 'b');
    const company = await addWebhook(admin.auth, 'company');
    expect(hookA.accountId).toBe(a.id);
    expect(company.accountId).toBeNull();

    // Each account lists and reads only its own endpoints.
    const listed = await callRoute(webhooksLoader, '/api/webhooks', { headers: keyA });
    expect((await listed.json()).webhooks.map((w: { id: string }) => w.id)).toEqual([hookA.id]);
    const other = await callRoute(webhookLoader, `/api/webhooks/${hookB.id}`, {
      headers: keyA,
      params: { id: hookB.id },
    });
    expect(other.status).toBe(404);

    const create = async (auth: Record<string, string>, name: string) => {
      const res = await callRoute(parcelsAction, '/api/parcels', {
        headers: auth,
        body: parcelBody(name),
      });
      return (await res.json()).parcel;
    };
    const ofA = await create(keyA, 'Ada');
    const ofB = await create(keyB, 'Bea');
    const testOfA = await create(testKeyA, 'Tess');

    // A test parcel is invisible to live keys and to the staff's list.
    expect(
      (
        await callRoute(parcelLoader, `/api/parcels/${testOfA.id}`, {
          headers: keyA,
          params: { id: testOfA.id },
        })
      ).status,
    ).toBe(404);
    const staffList = await callRoute(parcelsLoader, '/api/parcels?limit=100', {
      headers: admin.auth,
    });
    const staffIds = (await staffList.json()).parcels.map((p: { id: string }) => p.id);
    expect(staffIds).toContain(ofB.id);
    expect(staffIds).not.toContain(testOfA.id);

    // Pending → In Transit, then on to Delivered through every step, with a sample proof.
    const advance = (body?: unknown, auth = testKeyA, id = testOfA.id) =>
      callRoute(advanceAction, `/api/test/parcels/${id}/advance`, {
        method: 'POST',
        headers: auth,
        params: { id },
        body,
      });
    const first = await advance();
    expect(first.status).toBe(200);
    expect((await first.json()).parcel.status).toBe('In Transit');
    const delivered = await advance({ to: 'Delivered' });
    expect((await delivered.json()).parcel.status).toBe('Delivered');
    expect((await advance()).status).toBe(409);
    expect((await advance({ to: 'Nowhere' })).status).toBe(400);
    // A live parcel, or another account's, is not there for the test endpoint.
    expect((await advance(undefined, keyA, ofA.id)).status).toBe(404);
    expect((await advance(undefined, testKeyA, ofB.id)).status).toBe(404);
    const proofs = await callRoute(proofsLoader, `/api/parcels/${testOfA.id}/proof-of-delivery`, {
      headers: testKeyA,
      params: { id: testOfA.id },
    });
    expect((await proofs.json()).proofsOfDelivery[0]).toMatchObject({
      receivedBy: 'Sample Recipient',
    });

    const heardByA = await received(hookA.id);
    const aboutParcels = (events: Array<{ data: { parcel?: { id: string } } }>) =>
      new Set(events.map((e) => e.data.parcel?.id));
    expect(aboutParcels(heardByA)).toEqual(new Set([ofA.id, testOfA.id]));
    expect(heardByA.every((e) => e.accountId === a.id)).toBe(true);
    const testEvents = heardByA.filter((e) => e.livemode === false).map((e) => e.type);
    expect(testEvents).toEqual(
      expect.arrayContaining(['parcel.created', 'parcel.status_changed', 'parcel.delivered']),
    );
    expect(
      heardByA
        .filter((e) => e.type === 'parcel.status_changed' && e.livemode === false)
        .map((e) => e.data.parcel.status),
    ).toEqual(['In Transit', 'Out for Delivery', 'Delivered']);
    expect(aboutParcels(await received(hookB.id))).toEqual(new Set([ofB.id]));
    // The company hears of every live parcel, never of a test one.
    const heardByCompany = await received(company.id);
    expect(aboutParcels(heardByCompany)).toEqual(new Set([ofA.id, ofB.id]));
    expect(heardByCompany.every((e) => e.livemode === true)).toBe(true);

    // The automatic e-mails of the test parcel's life go to the account's test log, not out.
    env.SMTP_URL = 'smtp://127.0.0.1:9';
    try {
      for (;;) {
        try {
          await attemptDueJob(EMAIL_JOB);
        } catch (error) {
          if (String(error).includes('No email.send job is due')) break;
          throw error;
        }
      }
    } finally {
      env.SMTP_URL = undefined;
    }
    const log = await listTestMessages(a.id);
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((m) => m.trackingNumber === testOfA.trackingNumber)).toBe(true);
    expect(log[0]).toMatchObject({ to: 'tess@example.com', channel: 'email' });
  });
});
