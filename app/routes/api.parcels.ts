import { json } from '@remix-run/node';
import { listParcelChanges, listParcels } from '~/models/parcel-reads.server';
import { ParcelCreateSchema, ParcelListQuerySchema } from '~/schemas/parcel';
import { apiRoute } from '~/http/api.server';
import { apiHandler, apiSyncedList } from '~/http/api-handler.server';
import { forAccounts, wrap } from '~/http/api-operation.server';
import { scopeOf } from '~/lib/tenancy.server';
import { createParcel } from '~/services/parcels.server';

export const { loader, action } = apiRoute({
  GET: apiSyncedList(forAccounts('viewer'), {
    query: ParcelListQuerySchema,
    key: 'parcels',
    item: 'Parcel',
    list: (query, actor) => listParcels({ ...query, scope: scopeOf(actor) }),
    changes: (query, actor) => listParcelChanges({ ...query, scope: scopeOf(actor) }),
    summary: 'List parcels, newest first',
    description:
      "Parcels, newest first (or by `sort` and `order`), a page at a time: `page` from 1, `limit` at most 100. `status` and `search` (tracking number, sender or recipient) filter the list. Staff see the company's live parcels and every account's (`account`, `mode=test` for the accounts' test parcels); a shipper account's key sees only its own parcels of its key's mode (`sk_live_` or `sk_test_`).",
  }),
  POST: apiHandler(
    {
      role: forAccounts('staff'),
      idempotent: true,
      body: ParcelCreateSchema,
      summary:
        "Create a parcel ('Pending', a new tracking number), at a quote's price with `quoteId`",
      description:
        "Creates a parcel: status Pending, the fixed creation cost and a new tracking number whose last digit is its check digit. Only the recipient's name and address are required; unset fields take their defaults (Standard service and priority). Made with a shipper account's key, the parcel is the account's (`accountId`), of the key's mode (`livemode: false` for an `sk_test_` key), and its sender is the account's pickup address unless the body gives a sender's address. With `quoteId` (POST /api/quotes), the parcel is booked at the quote's price (`price`, and `cost` in major units), service, weight and dimensions, by its estimated day, and to its postcode; an account's booking is paid on account (`paymentMethod`). A quote books one parcel: again is 409 `quote_used`, after it expires 409 `quote_expired` with a new quote at today's price. A later change of the rate card never changes a booked parcel's price. With `paymentMethod: 'card'` (and `quoteId`), where card payment is offered (Stripe configured; otherwise 400 card_payment_unavailable), the parcel is answered with `payment: {status: 'pending', checkoutUrl}`: the payer pays on Stripe Checkout's page, and only Stripe's signed event (POST /api/stripe/webhook) marks it paid; until then it takes no scan and no pickup (409 payment_pending), and unpaid after 24 hours the booking is cancelled (`payment.status: 'expired'`). 503 payment_provider_unavailable when Stripe does not answer: nothing is booked.",
      errors: [503],
      errorAnswers: { 409: 'QuoteExpired' },
      bodyExample: {
        recipient: {
          name: 'Ada Lovelace',
          address: '12 Analytical Way',
          city: 'Springfield',
          postalCode: '62701',
          country: 'US',
          email: 'ada@example.com',
        },
        sender: { name: 'Acme Books', address: '1 Harbor Rd', city: 'Portland', country: 'US' },
        weight: 2.5,
        dimensions: { length: 30, width: 20, height: 10 },
        serviceType: 'Express',
        estimatedDelivery: '2026-05-06',
        deliveryWindow: { from: '2026-05-06T09:00:00-04:00', until: '2026-05-06T13:00:00-04:00' },
      },
      responses: { 201: wrap('parcel', 'Parcel') },
    },
    async ({ body, actor }) => json({ parcel: await createParcel(body, actor) }, { status: 201 }),
  ),
});
