import Stripe from 'stripe';
import { enqueueJob } from '~/models/job.server';
import {
  getParcel,
  getParcelPaymentSession,
  unpaidParcelNumbers,
} from '~/models/parcel-reads.server';
import { settleParcelPayment, startParcelPayment } from '~/models/parcel-writes.server';
import type { SerializedParcel } from '~/models/parcel.server';
import { env } from '~/lib/env.server';
import { ConflictError, UnavailableError, ValidationError } from '~/lib/errors.server';
import { publicUrl } from '~/lib/urls.server';
import { CARD_PAYMENT_HOURS } from '~/schemas/constants';
import { auditRecord, type Actor } from './audit.server';
import type { JobHandler } from './jobs.server';
import { addEvent } from './tracking-events.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Card payment of a booking through Stripe Checkout, with Stripe's own library. Offered only when
 * STRIPE_SECRET_KEY is set. A card booking is stored with its payment pending, then a Checkout
 * session is made for its price (one line, in its currency's minor units, the parcel's id as the
 * session's reference) and the payer is sent to Stripe's page. The payment is marked paid only by
 * Stripe's signed `checkout.session.completed` event (POST /api/stripe/webhook, checked with
 * STRIPE_WEBHOOK_SECRET), never by the browser coming back. Until then the parcel takes no scan and
 * no pickup (refuseUnpaid). A booking still unpaid CARD_PAYMENT_HOURS later is cancelled by a job
 * on the durable queue (Stripe's session closes a few minutes before, so no payment can follow).
 */

export const CARD_PAYMENT_EXPIRY_JOB = 'parcel.card-payment-expiry';

const HOUR_MS = 3_600_000;
/** Stripe's page closes this long before the booking is cancelled. */
const SESSION_CLOSES_BEFORE_MS = 5 * 60_000;

export const CARD_UNAVAILABLE = 'Card payment is not offered';

/** Whether card payment is offered: Stripe is configured. */
export function cardPaymentOffered(): boolean {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
}

let client: { key: string; stripe: Stripe } | null = null;

function stripe(): Stripe {
  const key = env.STRIPE_SECRET_KEY;
  if (!key) throw new ValidationError({ paymentMethod: [CARD_UNAVAILABLE] }, CARD_UNAVAILABLE);
  if (client?.key !== key)
    client = { key, stripe: new Stripe(key, { maxNetworkRetries: 1, timeout: 15_000 }) };
  return client.stripe;
}

/** A card booking refused before anything is stored: no Stripe, or no quoted price to charge. */
export function checkCardBooking(quoteId: string | undefined) {
  if (!cardPaymentOffered())
    throw new ValidationError(
      { paymentMethod: [`${CARD_UNAVAILABLE} here: pay on account`] },
      CARD_UNAVAILABLE,
      'card_payment_unavailable',
    );
  if (!quoteId)
    throw new ValidationError(
      { quoteId: ['A card booking is made with a quote: its price is what the card pays'] },
      'A card booking needs a quoteId',
      'card_payment_unavailable',
    );
}

/** The payment a card booking is stored with: pending, until its deadline. */
export function pendingPayment(now = new Date()) {
  return {
    status: 'pending' as const,
    expiresAt: new Date(now.getTime() + CARD_PAYMENT_HOURS * HOUR_MS),
  };
}

/**
 * Opens the Checkout session of a card booking just stored (pending) and plans its cancellation
 * at the deadline; the parcel with its checkout URL. Stripe not answering is an UnavailableError:
 * the caller removes the booking.
 */
export async function startCardPayment(parcel: SerializedParcel): Promise<SerializedParcel> {
  const price = parcel.price;
  const expiresAt = parcel.payment?.expiresAt ? new Date(parcel.payment.expiresAt) : null;
  if (!price || !expiresAt) throw new Error('A card booking is stored with its price and deadline');
  const back = (outcome: string) =>
    `${publicUrl(`/book/${parcel.trackingNumber}`)}?${new URLSearchParams({ payment: outcome })}`;
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe().checkout.sessions.create({
      mode: 'payment',
      client_reference_id: parcel.id,
      metadata: { parcelId: parcel.id, trackingNumber: parcel.trackingNumber },
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: price.currency.toLowerCase(),
            unit_amount: price.amount,
            product_data: {
              name: `${parcel.serviceType} delivery, parcel ${parcel.trackingNumber}`,
            },
          },
        },
      ],
      ...(parcel.sender.email ? { customer_email: parcel.sender.email } : {}),
      success_url: back('done'),
      cancel_url: back('cancelled'),
      expires_at: Math.floor((expiresAt.getTime() - SESSION_CLOSES_BEFORE_MS) / 1000),
    });
  } catch (error) {
    console.error('Stripe did not open a Checkout session', (error as Error).message);
    throw new UnavailableError(
      'Card payment cannot be started just now: nothing was booked, please try again',
      { code: 'payment_provider_unavailable' },
    );
  }
  if (!session.url) throw new UnavailableError('Stripe gave no payment page');
  const started = await startParcelPayment(parcel.id, {
    checkoutUrl: session.url,
    sessionId: session.id,
    expiresAt,
  });
  await enqueueJob(
    CARD_PAYMENT_EXPIRY_JOB,
    { parcelId: parcel.id },
    { runAt: expiresAt, uniqueKey: `card-payment-expiry:${parcel.id}` },
  );
  return started ?? parcel;
}

/** Refuses a scan of a card booking Stripe has not confirmed as paid. */
export function refuseUnpaid(parcel: Pick<SerializedParcel, 'payment' | 'trackingNumber'>) {
  if (parcel.payment && parcel.payment.status !== 'paid') throw unpaid([parcel.trackingNumber]);
}

/** Refuses a pickup that names card bookings Stripe has not confirmed as paid. */
export async function refuseUnpaidParcels(parcelIds: string[]) {
  const numbers = await unpaidParcelNumbers(parcelIds);
  if (numbers.length) throw unpaid(numbers);
}

function unpaid(numbers: string[]) {
  return new ConflictError(
    `${numbers.join(', ')}: booked to be paid by card, and the payment is not confirmed: it is not released for pickup until it is paid`,
    { code: 'payment_pending', extra: { trackingNumbers: numbers } },
  );
}

/** The audit trail's "who" for what Stripe's signed events and the deadline change. */
function systemActor(username: string): Actor {
  return { user: { id: '', username, role: 'viewer' } as Actor['user'], context: {}, via: 'api' };
}

export type StripeEventOutcome = 'paid' | 'expired' | 'unchanged' | 'ignored';

/**
 * An event Stripe posted, its signature checked against STRIPE_WEBHOOK_SECRET with Stripe's
 * library (null when it is not signed by Stripe: nothing changes). A completed (or, for a
 * delayed method, succeeded) Checkout session of one of our card bookings marks it paid; an
 * expired one cancels it. The session must be the booking's own: another's, or an event
 * replayed after the payment was settled, changes nothing.
 */
export async function receiveStripeEvent(
  payload: string,
  signature: string | null,
): Promise<StripeEventOutcome | null> {
  const secret = env.STRIPE_WEBHOOK_SECRET;
  if (!secret || !signature) return null;
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(payload, signature, secret);
  } catch {
    return null;
  }
  const paid =
    (event.type === 'checkout.session.completed' && event.data.object.payment_status === 'paid') ||
    event.type === 'checkout.session.async_payment_succeeded';
  if (!paid && event.type !== 'checkout.session.expired') return 'ignored';
  const session = event.data.object as Stripe.Checkout.Session;
  const parcelId = session.client_reference_id ?? session.metadata?.parcelId ?? '';
  const parcel = await getParcel(parcelId);
  if (!parcel?.payment || parcel.payment.status !== 'pending')
    return parcel ? 'unchanged' : 'ignored';
  if (!(await isSessionOf(parcelId, session))) return 'ignored';
  if (paid) {
    const after = await settleParcelPayment(parcelId, { status: 'paid', paidAt: new Date() });
    if (!after) return 'unchanged';
    await auditRecord(systemActor('Stripe (signed event)'), 'update', 'parcel', {
      label: after.trackingNumber,
      before: parcel,
      after,
    });
    await emitWebhookEvent('parcel.updated', { parcel: after });
    return 'paid';
  }
  return (await cancelUnpaidBooking(parcel, 'Stripe (signed event)')) ? 'expired' : 'unchanged';
}

/** Whether the session is the one opened for the parcel, for its price. */
async function isSessionOf(parcelId: string, session: Stripe.Checkout.Session) {
  const stored = await getParcelPaymentSession(parcelId);
  return Boolean(stored && stored.sessionId === session.id);
}

/**
 * Cancels a card booking whose payment did not come: its payment expired, a Custom Status event
 * saying so on its tracking, audited, with `parcel.updated`. Nothing when it is no longer pending.
 */
async function cancelUnpaidBooking(before: SerializedParcel, who: string) {
  const after = await settleParcelPayment(before.id, { status: 'expired' });
  if (!after) return null;
  const actor = systemActor(who);
  await addEvent(
    after.id,
    {
      status: 'Custom Status',
      customStatus: 'Booking cancelled',
      location: '',
      description: `The card payment was not made within ${CARD_PAYMENT_HOURS} hours`,
    },
    actor,
  );
  await auditRecord(actor, 'update', 'parcel', { label: after.trackingNumber, before, after });
  await emitWebhookEvent('parcel.updated', { parcel: after });
  return after;
}

/** The job at a card booking's deadline: cancels it when it is still unpaid. */
export const cardPaymentExpiryJob: JobHandler = {
  run: async (job) => {
    const parcel = await getParcel(String(job.payload.parcelId));
    if (parcel?.payment?.status !== 'pending') return;
    await cancelUnpaidBooking(parcel, 'card payment deadline');
  },
};
