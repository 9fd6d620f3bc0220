import { json } from '@remix-run/node';
import { ApiError, apiRoute } from '~/http/api.server';
import { declared, obj } from '~/http/api-operation.server';
import { cardPaymentOffered, receiveStripeEvent } from '~/services/card-payments.server';

const OUTCOMES = ['paid', 'expired', 'unchanged', 'ignored'];

/**
 * Stripe's events about the Checkout sessions of card bookings: the only way a booking is marked
 * paid. Public, for Stripe, and refused unless signed with STRIPE_WEBHOOK_SECRET.
 */
export const { loader, action } = apiRoute({
  POST: declared(
    {
      access: 'public',
      summary: "Receive Stripe's events about card payments",
      description:
        "Stripe's webhook endpoint (add it in Stripe's dashboard with the events `checkout.session.completed`, `checkout.session.async_payment_succeeded` and `checkout.session.expired`; its signing secret is STRIPE_WEBHOOK_SECRET). The body is read as sent and its `Stripe-Signature` checked with Stripe's library: an unsigned or wrongly signed event is 400 (invalid_signature) and changes nothing. A completed and paid Checkout session of a card booking (the session opened for it) marks its payment paid (audited, `parcel.updated`); an expired one cancels the booking. An event already applied, replayed, changes nothing (`unchanged`); other events are `ignored`. 404 when card payment is not configured.",
      rawBody: {
        contentType: 'application/json',
        schema: obj({ id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } }),
        description: 'A Stripe event, exactly as Stripe sends it, signed in `Stripe-Signature`',
        example: {
          id: 'evt_1PqR2sT3uV4wX5yZ',
          type: 'checkout.session.completed',
          data: {
            object: {
              id: 'cs_test_a1B2c3D4',
              object: 'checkout.session',
              client_reference_id: '665f1c2ab4d3e8a1c0ffee01',
              payment_status: 'paid',
            },
          },
        },
      },
      responses: {
        200: {
          schema: obj({
            received: { type: 'boolean', const: true },
            outcome: { type: 'string', enum: OUTCOMES },
          }),
          example: { received: true, outcome: 'paid' },
        },
      },
      errors: [400, 404],
    },
    async ({ request }) => {
      if (!cardPaymentOffered()) throw new ApiError(404, 'Card payment is not configured');
      const outcome = await receiveStripeEvent(
        await request.text(),
        request.headers.get('stripe-signature'),
      );
      if (!outcome)
        throw new ApiError(400, 'The event’s Stripe-Signature is missing or not valid', undefined, {
          code: 'invalid_signature',
        });
      return json({ received: true, outcome });
    },
  ),
});
