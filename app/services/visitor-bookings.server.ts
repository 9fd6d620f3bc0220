import { getOpenPublicQuote } from '~/models/quote.server';
import type { BookingForm } from '~/schemas/booking';
import { PUBLIC_FORM_RATE_LIMIT } from '~/schemas/public-forms';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { ValidationError } from '~/lib/errors.server';
import { RateLimit } from '~/lib/rate-limit.server';
import type { Actor } from './audit.server';
import { createParcel } from './parcels.server';

/**
 * A visitor books a parcel without an account and pays it by card: the quote they chose on /quote
 * (the company's prices) is booked through the same createParcel as any booking, paid by card,
 * and they are sent to Stripe Checkout's page. The payment is confirmed by Stripe's signed
 * event only (card-payments.server.ts).
 */

/** Bookings per client address within the public forms' window. */
export const bookingLimiter = new RateLimit(
  'booking',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
  { perAddress: true },
);

/** The audit trail's "who" for a visitor's booking. */
function visitorActor(clientAddress: string): Actor {
  return {
    user: { id: '', username: 'visitor (booking form)', role: 'viewer' } as Actor['user'],
    context: { clientAddress },
    via: 'page',
  };
}

/** The quote a visitor is booking, while it can be booked; a ValidationError otherwise. */
export async function bookableQuote(quoteId: string) {
  const quote = await getOpenPublicQuote(quoteId);
  if (!quote)
    throw new ValidationError(
      { quoteId: ['This price has expired or was already booked: price the parcel again'] },
      'This price can no longer be booked',
      'quote_expired',
    );
  return quote;
}

/** Books the visitor's parcel at its quote, paid by card: the parcel with its checkout URL. */
export async function bookAsVisitor(form: BookingForm, clientAddress: string) {
  const quote = await bookableQuote(form.quoteId);
  const input = ParcelCreateSchema.parse({
    quoteId: form.quoteId,
    paymentMethod: 'card',
    sender: {
      name: form.senderName,
      email: form.senderEmail,
      phone: form.senderPhone,
      address: form.senderAddress,
      city: form.senderCity,
      postalCode: quote.from.postalCode,
      country: quote.from.country,
    },
    recipient: {
      name: form.recipientName,
      email: form.recipientEmail ?? '',
      phone: form.recipientPhone ?? '',
      address: form.recipientAddress,
      city: form.recipientCity,
      postalCode: quote.to.postalCode,
      country: quote.to.country,
    },
  });
  return createParcel(input, visitorActor(clientAddress));
}
