import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { action as quotesAction } from '~/routes/api.quotes';
import { action as parcelsAction } from '~/routes/api.parcels';
import { action as scansAction } from '~/routes/api.scans';
import { action as stripeAction } from '~/routes/api.stripe.webhook';
import { action as bookAction, loader as bookLoader } from '~/routes/_public.book';
import { loader as bookingLoader } from '~/routes/_public.book_.$trackingNumber';
import { loader as quotePageLoader } from '~/routes/_public.quote';
import { action as sendAction, loader as sendLoader } from '~/routes/account.send';
import { action as pickupsAction } from '~/routes/api.pickups';
import { firstPickupDay } from '~/services/pickups.server';
import { DEFAULT_PICKUP_CUTOFF } from '~/schemas/pickup';
import { nextWorkingDay } from '~/utils/delivery-headline';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env, parseEnv } from '~/lib/env.server';
import { getParcel } from '~/models/parcel-reads.server';
import { listAudit } from '~/models/audit.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { CARD_PAYMENT_EXPIRY_JOB } from '~/services/card-payments.server';
import { callRoute, uniqueAddress } from '../support/api';
import { attemptDueJob } from '../support/jobs';
import {
  createAccount,
  createShipper,
  createUser,
  sendParcelForm,
  type TestUser,
  VISITOR_BOOKING,
} from '../support/factories';

/**
 * Card bookings through Stripe Checkout, with msw standing in for Stripe's API and events signed
 * by Stripe's own test helper.
 */
const WEBHOOK_SECRET = 'whsec_test_cardpayments0123456789';
const saved = { key: env.STRIPE_SECRET_KEY, secret: env.STRIPE_WEBHOOK_SECRET };
const sessions: URLSearchParams[] = [];

const stripeApi = setupServer(
  http.post('https://api.stripe.com/v1/checkout/sessions', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    sessions.push(form);
    const id = `cs_test_${sessions.length}a1B2c3D4e5F6`;
    return HttpResponse.json({
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
      currency: form.get('line_items[0][price_data][currency]'),
      client_reference_id: form.get('client_reference_id'),
      metadata: { parcelId: form.get('metadata[parcelId]') },
      expires_at: Number(form.get('expires_at')),
      success_url: form.get('success_url'),
      cancel_url: form.get('cancel_url'),
      url: `https://checkout.stripe.com/c/pay/${id}`,
    });
  }),
);

let admin: TestUser;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  stripeApi.listen({ onUnhandledRequest: 'error' });
  Object.assign(env, {
    STRIPE_SECRET_KEY: 'sk_test_cardpayments0123',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  admin = await createUser('admin');
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  stripeApi.close();
  Object.assign(env, { STRIPE_SECRET_KEY: saved.key, STRIPE_WEBHOOK_SECRET: saved.secret });
  await disconnectDb();
});

async function quoteId() {
  const response = await callRoute(quotesAction, '/api/quotes', {
    clientAddress: uniqueAddress(),
    body: {
      from: { country: 'US', postalCode: '97201' },
      to: { country: 'US', postalCode: '62701' },
      weight: 0.8,
      dimensions: { length: 20, width: 15, height: 10 },
      serviceType: 'Standard',
    },
  });
  expect(response.status).toBe(201);
  return (await response.json()).quotes[0].id as string;
}

const recipient = { name: 'Ada Lovelace', address: '12 Analytical Way', postalCode: '62701' };

async function bookByCard(extra: Record<string, unknown> = {}, auth = admin.auth) {
  return callRoute(parcelsAction, '/api/parcels', {
    headers: auth,
    body: { quoteId: await quoteId(), recipient, paymentMethod: 'card', ...extra },
  });
}

function scan(trackingNumber: string, auth = admin.auth) {
  return callRoute(scansAction, '/api/scans', {
    headers: auth,
    body: { trackingNumber, status: 'Picked Up', location: 'Portland' },
  });
}

function stripeEvent(
  type: string,
  session: Record<string, unknown>,
  secret = WEBHOOK_SECRET,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    data: { object: { object: 'checkout.session', ...session } },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return callRoute(stripeAction, '/api/stripe/webhook', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

describe('card payment through Stripe Checkout', () => {
  it('is refused, and not offered, without STRIPE_SECRET_KEY', async () => {
    env.STRIPE_SECRET_KEY = undefined;
    try {
      const refused = await bookByCard();
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        code: 'card_payment_unavailable',
        details: { paymentMethod: [expect.any(String)] },
      });
      const webhook = await stripeEvent('checkout.session.completed', { id: 'cs_x' });
      expect(webhook.status).toBe(404);
      // The key alone does not start: nothing could mark a payment paid.
      expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_live_0123456789ab' })).toThrow(
        /STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY/,
      );
    } finally {
      env.STRIPE_SECRET_KEY = 'sk_test_cardpayments0123';
    }
    expect(sessions).toHaveLength(0);
  });

  it('opens a Checkout session for the quoted price; the booking is pending and takes no scan until a signed event says it is paid, once', async () => {
    const response = await bookByCard();
    expect(response.status).toBe(201);
    const { parcel } = await response.json();
    expect(parcel).toMatchObject({
      price: { amount: 999, currency: 'USD' },
      paymentMethod: 'card',
      payment: { status: 'pending', checkoutUrl: expect.stringMatching(/^https:\/\/checkout/) },
    });
    const sent = sessions.at(-1)!;
    expect(Object.fromEntries(sent)).toMatchObject({
      mode: 'payment',
      client_reference_id: parcel.id,
      'metadata[parcelId]': parcel.id,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '999',
      'line_items[0][price_data][currency]': 'usd',
      success_url: expect.stringContaining(`/book/${parcel.trackingNumber}?payment=done`),
      cancel_url: expect.stringContaining(`/book/${parcel.trackingNumber}?payment=cancelled`),
    });
    // Stripe's page closes before the booking is cancelled, at most 24 hours on.
    const closes = Number(sent.get('expires_at')) * 1000;
    expect(closes).toBeLessThan(new Date(parcel.payment.expiresAt).getTime());
    expect(closes).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const refused = await scan(parcel.trackingNumber);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'payment_pending' });

    const session = {
      id: `cs_test_${sessions.length}a1B2c3D4e5F6`,
      client_reference_id: parcel.id,
      payment_status: 'paid',
    };
    const forged = await stripeEvent(
      'checkout.session.completed',
      session,
      'whsec_not_stripes_1234',
    );
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: 'invalid_signature' });
    const unsigned = await callRoute(stripeAction, '/api/stripe/webhook', {
      body: JSON.stringify({ type: 'checkout.session.completed', data: { object: session } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    // Another session naming the parcel is not its payment.
    const other = await stripeEvent('checkout.session.completed', { ...session, id: 'cs_other' });
    expect(await other.json()).toMatchObject({ outcome: 'ignored' });
    expect((await getParcel(parcel.id))!.payment).toMatchObject({ status: 'pending' });

    const paid = await stripeEvent('checkout.session.completed', session, WEBHOOK_SECRET, 'evt_1');
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ received: true, outcome: 'paid' });
    const after = (await getParcel(parcel.id))!;
    expect(after.payment).toMatchObject({ status: 'paid', checkoutUrl: null });
    const replay = await stripeEvent(
      'checkout.session.completed',
      session,
      WEBHOOK_SECRET,
      'evt_1',
    );
    expect(await replay.json()).toEqual({ received: true, outcome: 'unchanged' });
    expect((await getParcel(parcel.id))!.updatedAt).toBe(after.updatedAt);
    const audit = await listAudit({ entityId: parcel.id, action: 'update' });
    expect(audit.entries.map((e) => e.actor.username)).toEqual(['Stripe (signed event)']);

    expect((await scan(parcel.trackingNumber)).status).toBe(201);
  });

  it('cancels a booking still unpaid 24 hours on, through its job; an account booking is never held', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-03-04T15:00:00Z'));
    // The deadline of the booking paid above passes: it stays paid.
    await attemptDueJob(CARD_PAYMENT_EXPIRY_JOB);
    const [paid] = (await listAudit({ entity: 'parcel', action: 'update' })).entries;
    expect((await getParcel(paid!.entityId))!.payment).toMatchObject({ status: 'paid' });
    // Signed in within the controlled clock.
    const { auth } = await createUser('staff');
    const booked = await bookByCard({}, auth);
    expect(booked.status).toBe(201);
    const { parcel } = await booked.json();
    vi.setSystemTime(new Date('2030-03-05T14:59:00Z'));
    await expect(attemptDueJob(CARD_PAYMENT_EXPIRY_JOB)).rejects.toThrow(/No .* job is due/);
    vi.setSystemTime(new Date('2030-03-05T15:00:01Z'));
    await attemptDueJob(CARD_PAYMENT_EXPIRY_JOB);
    const cancelled = (await getParcel(parcel.id))!;
    expect(cancelled.payment).toMatchObject({ status: 'expired', checkoutUrl: null });
    expect(cancelled.events![0]).toMatchObject({
      status: 'Custom Status',
      customStatus: 'Booking cancelled',
    });
    expect((await scan(parcel.trackingNumber, auth)).status).toBe(409);
    // A late event about it changes nothing.
    const late = await stripeEvent('checkout.session.completed', {
      id: 'cs_late',
      client_reference_id: parcel.id,
      payment_status: 'paid',
    });
    expect(await late.json()).toMatchObject({ outcome: 'unchanged' });

    const onAccount = await bookByCard({ paymentMethod: 'account' }, auth);
    const { parcel: billed } = await onAccount.json();
    expect(billed).toMatchObject({ paymentMethod: 'account', payment: null });
  });
});

describe('a visitor’s booking, paid by card', () => {
  const pricer = {
    fromCountry: 'US',
    fromPostalCode: '97201',
    toCountry: 'US',
    toPostalCode: '62701',
    weight: '0.8',
    length: '20',
    width: '15',
    height: '10',
  };
  const people = VISITOR_BOOKING;

  it('books a price from /quote through the form and goes on to Stripe Checkout; the page it comes back to reads the payment from Stripe’s event', async () => {
    const page = await (
      await callRoute(quotePageLoader, `/quote?${new URLSearchParams(pricer)}`)
    ).json();
    expect(page.pricer).toMatchObject({ cardOffered: true, prices: expect.any(Array) });

    const held = await callRoute(bookAction, '/book', {
      form: { ...pricer, intent: 'quote', serviceType: 'Express', lang: 'fr' },
      clientAddress: uniqueAddress(),
    });
    expect(held.status).toBe(303);
    const location = new URL(held.headers.get('location')!, 'http://localhost');
    expect(location.pathname).toBe('/book');
    expect(location.searchParams.get('lang')).toBe('fr');
    const quoteId = location.searchParams.get('quote')!;
    const form = await (await callRoute(bookLoader, `/book?quote=${quoteId}`)).json();
    expect(form.quote).toMatchObject({ id: quoteId, serviceType: 'Express', currency: 'USD' });

    const incomplete = await callRoute(bookAction, `/book?quote=${quoteId}`, {
      form: { ...people, quoteId, senderEmail: 'not-an-address', recipientName: '' },
      clientAddress: uniqueAddress(),
    });
    expect(incomplete.status).toBe(400);
    expect(Object.keys((await incomplete.json()).reply.error).sort()).toEqual([
      'recipientName',
      'senderEmail',
    ]);

    const booked = await callRoute(bookAction, `/book?quote=${quoteId}`, {
      // A price sent along is not read: the quote's is charged.
      form: { ...people, quoteId, amount: '1' },
      clientAddress: uniqueAddress(),
    });
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\//);
    const sent = Object.fromEntries(sessions.at(-1)!);
    expect(sent['line_items[0][price_data][unit_amount]']).toBe(String(form.quote.amount));
    const parcel = (await getParcel(sent.client_reference_id!))!;
    expect(parcel).toMatchObject({
      accountId: null,
      paymentMethod: 'card',
      price: { amount: form.quote.amount, currency: 'USD' },
      sender: { name: 'Grace Hopper', postalCode: '97201', email: 'grace@example.com' },
      recipient: { name: 'Ada Lovelace', postalCode: '62701' },
      payment: { status: 'pending' },
    });
    const again = await callRoute(bookAction, `/book?quote=${quoteId}`, {
      form: { ...people, quoteId },
      clientAddress: uniqueAddress(),
    });
    expect(await again.json()).toMatchObject({ problem: 'expired' });

    // Coming back from Stripe says nothing about the payment: only the signed event does.
    const back = `/book/${parcel.trackingNumber}?payment=done`;
    const params = { trackingNumber: parcel.trackingNumber };
    const pending = await (await callRoute(bookingLoader, back, { params })).json();
    expect(pending).toMatchObject({ payment: 'pending', trackingNumber: parcel.trackingNumber });
    await stripeEvent('checkout.session.completed', {
      id: sent.client_reference_id && `cs_test_${sessions.length}a1B2c3D4e5F6`,
      client_reference_id: parcel.id,
      payment_status: 'paid',
    });
    const paid = await (await callRoute(bookingLoader, back, { params })).json();
    expect(paid).toMatchObject({ payment: 'paid', checkoutUrl: null });
  });
});

describe('the portal’s Send a parcel, by card', () => {
  it('offers card beside the account, goes on to Stripe Checkout, and refuses a pickup of the unpaid parcel', async () => {
    const account = await createAccount();
    const shipper = await createShipper(account);
    const { defaults, cardOffered } = await (
      await callRoute(sendLoader, '/account/send', { cookie: shipper.cookie })
    ).json();
    expect(cardOffered).toBe(true);
    const form = sendParcelForm(defaults);
    const priced = await callRoute(sendAction, '/account/send', {
      cookie: shipper.cookie,
      form: { ...form, intent: 'price' },
    });
    const [quote] = (await priced.json()).quotes;
    const booked = await callRoute(sendAction, '/account/send', {
      cookie: shipper.cookie,
      form: { ...form, intent: 'book', quoteId: quote.id, paymentMethod: 'card' },
    });
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const parcelId = Object.fromEntries(sessions.at(-1)!).client_reference_id!;
    expect((await getParcel(parcelId))!).toMatchObject({
      accountId: account.id,
      paymentMethod: 'card',
      payment: { status: 'pending' },
    });
    const pickup = await callRoute(pickupsAction, '/api/pickups', {
      cookie: shipper.cookie,
      body: {
        date: nextWorkingDay(firstPickupDay(new Date(), DEFAULT_PICKUP_CUTOFF)),
        window: { from: '09:00', until: '12:00' },
        parcelIds: [parcelId],
      },
    });
    expect(pickup.status).toBe(409);
    expect(await pickup.json()).toMatchObject({ code: 'payment_pending' });
  });
});
