import { findParcelIdByTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { getParcel, getParcelSchedule, parcelInScope } from '~/models/parcel-reads.server';
import {
  insertParcel,
  removeParcel,
  updateParcelFields,
  type StoredWindow,
} from '~/models/parcel-writes.server';
import { type SerializedParcel } from '~/models/parcel.server';
import type { DeliveryWindowInput, ParcelCreateInput, ParcelUpdateInput } from '~/schemas/parcel';
import { recipientTimeZone, type ZonedParcel } from '~/lib/address-time-zone.server';
import { dayIn } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import {
  normalizeTrackingNumber,
  TRACKING_NUMBER_PATTERN,
  type ServiceType,
} from '~/schemas/constants';
import { NotFoundError, ValidationError } from '~/lib/errors.server';
import { scopeFilter, scopeOf, type AccountScope, type Scoped } from '~/lib/tenancy.server';
import { getAccount } from '~/models/account.server';
import { isObjectId } from '~/lib/db.server';
import { auditRecord, type Actor } from './audit.server';
import { planDayBeforeEmail } from './day-before-emails.server';
import { emitWebhookEvent } from './webhooks.server';
import { notFound, trackingNumberNotFound } from './public-tracking.server';
import { releaseQuote, takeQuote } from './quotes.server';
import { checkCardBooking, pendingPayment, startCardPayment } from './card-payments.server';
import { noteQuoteParcel, type StoredQuote } from '~/models/quote.server';

/**
 * The parcel a URL parameter (`name`) names, by its id or by its tracking number (any case,
 * spaces around it ignored), as its id: every per-parcel API route reads its parcel through this.
 * An id is returned as given (the route answers 404 when no parcel has it); a tracking number no
 * parcel has is a 404 with code tracking_number_mistyped or tracking_number_not_found, as the
 * public lookup answers; anything else is a 400 naming the parameter.
 */
export async function resolveParcelRef(
  value: string | undefined,
  name: string,
  actor?: Scoped,
): Promise<string> {
  const scope = scopeOf(actor);
  if (isObjectId(value)) {
    // An account's request names only its own parcels: any other is not there.
    if (scope && !(await parcelInScope(value, scopeFilter(scope))))
      throw new NotFoundError('Parcel not found');
    return value;
  }
  const trackingNumber = normalizeTrackingNumber(value ?? '');
  if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) {
    const message = 'Expected a parcel id (24 hex digits) or a tracking number, e.g. SWX123456789';
    throw new ValidationError({ [name]: [message] }, 'Invalid parcel id');
  }
  const id = await findParcelIdByTrackingNumber(trackingNumber, scopeFilter(scope));
  if (!id) throw trackingNumberNotFound(notFound(trackingNumber));
  return id;
}

/** A parcel's account as staff set it: one that exists, or none. */
async function checkAccount(accountId: string | null | undefined) {
  if (accountId && !(await getAccount(accountId)))
    throw new ValidationError({ accountId: ['No account has this id'] });
}

/** The calendar day a parcel's estimated delivery names (kept as midnight UTC of that day). */
const estimatedDay = (date: Date | string) => new Date(date).toISOString().slice(0, 10);

/**
 * The window a change stores, on the estimated day (the one given, else the parcel's), in the
 * recipient's zone (their address as changed, else as stored): the forms' times on that day, or
 * the API's instants, which must fall on it; null removes it. A new estimated day given without a
 * window removes a window left on another day, so the parcel never shows times on a day it is no
 * longer expected. Undefined: no change.
 */
async function windowToStore(
  id: string | null,
  changes: {
    estimatedDelivery?: Date;
    deliveryWindow?: DeliveryWindowInput;
    recipient?: ZonedParcel['recipient'];
    destinations?: ZonedParcel['destinations'];
  },
): Promise<StoredWindow | undefined> {
  const { estimatedDelivery, deliveryWindow } = changes;
  if (deliveryWindow === undefined && !estimatedDelivery) return undefined;
  if (deliveryWindow === null) return null;
  const stored = id ? await getParcelSchedule(id) : null;
  const when = estimatedDelivery ?? stored?.estimatedDelivery;
  const day = when ? estimatedDay(when) : null;
  const zone = recipientTimeZone({
    recipient: { ...stored?.recipient, ...changes.recipient },
    destinations: changes.destinations ?? stored?.destinations,
  });
  if (deliveryWindow === undefined) {
    const until = stored?.deliveryWindow?.until;
    return until && dayIn(new Date(until), zone) !== day ? null : undefined;
  }
  const refuse = (message: string) => new ValidationError({ deliveryWindow: [message] });
  if (!day) {
    // No such parcel: the update answers that.
    if (id && !stored) return undefined;
    throw refuse('Give the estimated delivery day the window is on');
  }
  if ('fromTime' in deliveryWindow)
    return {
      from: zonedDateTimeToUtc(day, deliveryWindow.fromTime, zone),
      until: zonedDateTimeToUtc(day, deliveryWindow.untilTime, zone),
    };
  if (dayIn(deliveryWindow.from, zone) !== day || dayIn(deliveryWindow.until, zone) !== day)
    throw refuse(`The window must be on the estimated delivery day, ${day} (${zone})`);
  return deliveryWindow;
}

/**
 * The changes to a parcel, each with everything that goes with it: the write, the audit entry
 * and the webhooks. The dashboard's forms, the table's bulk actions and the API call these, so a
 * change looks the same whichever way it was made.
 */

export async function createParcel(
  input: ParcelCreateInput,
  actor?: Actor,
): Promise<SerializedParcel> {
  const scope = scopeOf(actor);
  if (!scope) await checkAccount(input.accountId);
  const { quoteId, paymentMethod, ...fields } = input;
  const byCard = paymentMethod === 'card';
  if (byCard) checkCardBooking(quoteId);
  const quote = quoteId ? await takeQuote(quoteId, scope) : null;
  let parcel: SerializedParcel | null = null;
  try {
    const booked = quote ? bookedAtQuote(fields, quote) : fields;
    parcel = await insertParcel({
      ...booked,
      ...(scope ? await accountParcelFields(scope, input.sender) : {}),
      ...(quote && (scope || paymentMethod) ? { paymentMethod: paymentMethod ?? 'account' } : {}),
      ...(byCard ? { payment: pendingPayment() } : {}),
      deliveryWindow: await windowToStore(null, booked),
    });
    if (byCard) parcel = await startCardPayment(parcel);
  } catch (error) {
    // Nothing is booked when the card payment cannot start: the quote can be used again.
    if (parcel) await removeParcel(parcel.id);
    if (quote) await releaseQuote(quote.id);
    throw error;
  }
  if (quote) await noteQuoteParcel(quote.id, parcel.id);
  await emitWebhookEvent('parcel.created', { parcel });
  await auditRecord(actor, 'create', 'parcel', { label: parcel.trackingNumber, after: parcel });
  await planDayBeforeEmail(parcel);
  return parcel;
}

/**
 * A parcel booked with a quote: the quote's price, service, weight and dimensions, delivered by
 * its day, to its postcode (a recipient's postcode elsewhere is refused: it was not priced).
 */
function bookedAtQuote<T extends Omit<ParcelCreateInput, 'quoteId' | 'paymentMethod'>>(
  input: T,
  quote: StoredQuote,
) {
  const postcode = (value: string) => value.toUpperCase().replace(/\s+/g, '');
  if (
    input.recipient.postalCode &&
    postcode(input.recipient.postalCode) !== postcode(quote.to.postalCode)
  )
    throw new ValidationError(
      {
        'recipient.postalCode': [
          `The quote was for postcode ${quote.to.postalCode}: ask for a quote to this one`,
        ],
      },
      'The recipient’s postcode is not the one quoted',
    );
  const recipient = {
    ...input.recipient,
    postalCode: input.recipient.postalCode || quote.to.postalCode,
    country: input.recipient.country || quote.to.country,
  };
  return {
    ...input,
    recipient,
    destinations: input.destinations.map((d, index) =>
      index === 0 && !d.postalCode ? { ...d, postalCode: recipient.postalCode } : d,
    ),
    serviceType: quote.serviceType as ServiceType,
    weight: quote.weight,
    dimensions: quote.dimensions,
    estimatedDelivery: new Date(`${quote.estimatedDelivery}T00:00:00.000Z`),
    price: { amount: quote.amount, currency: quote.currency },
  };
}

/**
 * What a parcel an account creates carries: the account, its mode, and its pickup address as
 * the sender when the sender's address is not given.
 */
async function accountParcelFields(scope: AccountScope, sender: ParcelCreateInput['sender']) {
  const account = await getAccount(scope.accountId);
  const pickup = account?.pickupAddress;
  return {
    accountId: scope.accountId,
    livemode: scope.livemode,
    sender:
      sender.address || !account || !pickup
        ? sender
        : {
            ...sender,
            ...pickup,
            name: sender.name || account.name,
            email: sender.email || account.email,
            phone: sender.phone || account.phone,
          },
  };
}

/** Only the fields given change (nested ones too); null when there is no such parcel. */
export async function updateParcel(
  id: string,
  changes: ParcelUpdateInput,
  actor?: Actor,
  { version }: { version?: number | null } = {},
): Promise<SerializedParcel | null> {
  await checkAccount(changes.accountId);
  const before = actor ? await getParcel(id) : null;
  const result = await updateParcelFields(
    id,
    { ...changes, deliveryWindow: await windowToStore(id, changes) },
    { version },
  );
  if (!result) return null;
  const { parcel, previousStatus } = result;
  await emitWebhookEvent('parcel.updated', { parcel });
  if (previousStatus && previousStatus !== parcel.status)
    await emitWebhookEvent('parcel.status_changed', { parcel, previousStatus });
  await auditRecord(actor, 'update', 'parcel', {
    label: parcel.trackingNumber,
    before,
    after: parcel,
  });
  if (changes.estimatedDelivery) await planDayBeforeEmail(parcel);
  return parcel;
}

/** Deletes a parcel and its tracking events; returns it as it was, or null when unknown. */
export async function deleteParcel(id: string, actor?: Actor): Promise<SerializedParcel | null> {
  const parcel = await removeParcel(id);
  if (!parcel) return null;
  await emitWebhookEvent('parcel.deleted', { parcel });
  await auditRecord(actor, 'delete', 'parcel', { label: parcel.trackingNumber, before: parcel });
  return parcel;
}
