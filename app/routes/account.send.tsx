import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { requireShipper } from '~/http/auth.server';
import { asApiError } from '~/http/api.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { getAccount } from '~/models/account.server';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { SendParcelFormSchema, type SendParcelForm } from '~/schemas/rate-card';
import { createParcel } from '~/services/parcels.server';
import { createQuotes } from '~/services/quotes.server';
import { cardPaymentOffered } from '~/services/card-payments.server';
import { formatMoney } from '~/utils/money';

/**
 * "Send a parcel": the addresses (the account's pickup address first), the parcel and a
 * reference, priced per service; then one is chosen and confirmed, and the parcel is booked at
 * that quote's price. Two plain forms: it works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const account = await getAccount(user.account.accountId);
  const pickup = account?.pickupAddress;
  return json({
    cardOffered: cardPaymentOffered(),
    defaults: {
      senderName: account?.name ?? '',
      senderAddress: pickup?.address ?? '',
      senderCity: pickup?.city ?? '',
      senderPostalCode: pickup?.postalCode ?? '',
      senderCountry: pickup?.country ?? '',
      recipientCountry: pickup?.country ?? '',
    } as Record<string, string>,
  });
}

type Quoted = Awaited<ReturnType<typeof createQuotes>>;
type SendAnswer = {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  quotes: Quoted | null;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireShipper(request);
  const actor = { user, context };
  const formData = await readFormData(request);
  const values = Object.fromEntries(
    [...formData].map(([key, value]) => [key, String(value).slice(0, 500)]),
  );
  const answer = (status: number, errors: Record<string, string[]>, quotes: Quoted | null = null) =>
    json<SendAnswer>({ values, errors, quotes }, { status });
  const submission = parseWithZod(formData, { schema: SendParcelFormSchema });
  if (submission.status !== 'success')
    return answer(
      400,
      Object.fromEntries(
        Object.entries(submission.error ?? {}).map(([key, value]) => [key, value ?? []]),
      ),
    );
  const form = submission.value;
  try {
    if (form.intent === 'book' && form.quoteId) {
      const parcel = await createParcel(ParcelCreateSchema.parse(bookingOf(form)), actor);
      // Paid by card: on to Stripe Checkout; the parcel is paid once Stripe's signed event says so.
      if (parcel.payment?.checkoutUrl) return redirect(parcel.payment.checkoutUrl, 303);
      return redirectWithToast(request, `/account/parcels/${parcel.id}`, {
        type: 'success',
        title: 'Parcel booked',
        description: `${parcel.trackingNumber} · ${formatMoney({ amount: parcel.price!.amount, currency: parcel.price!.currency })}`,
      });
    }
    const quotes = await createQuotes(
      {
        from: { country: form.senderCountry, postalCode: form.senderPostalCode },
        to: { country: form.recipientCountry, postalCode: form.recipientPostalCode },
        weight: form.weight,
        dimensions: { length: form.length, width: form.width, height: form.height },
      },
      actor,
    );
    return answer(200, form.intent === 'book' ? { quoteId: ['Choose a service'] } : {}, quotes);
  } catch (error) {
    const refusal = asApiError(error);
    if (!refusal) throw error;
    const fresh = (refusal.options.extra?.quote as Quoted[number] | null | undefined) ?? null;
    return answer(
      refusal.status,
      { ...fieldNames(refusal.details), '': [refusal.message] },
      fresh ? [fresh] : null,
    );
  }
}

/** The API's body for the booking: what the form gives, at the chosen quote. */
function bookingOf(form: SendParcelForm) {
  return {
    quoteId: form.quoteId,
    paymentMethod: form.paymentMethod,
    reference: form.reference,
    recipient: {
      name: form.recipientName,
      address: form.recipientAddress,
      city: form.recipientCity,
      postalCode: form.recipientPostalCode,
      country: form.recipientCountry,
      email: form.recipientEmail,
    },
    sender: {
      name: form.senderName,
      address: form.senderAddress,
      city: form.senderCity,
      postalCode: form.senderPostalCode,
      country: form.senderCountry,
    },
  };
}

/** The service's field paths as the form names its fields. */
function fieldNames(details: Record<string, string[]> = {}) {
  const names: Record<string, string> = {
    'from.postalCode': 'senderPostalCode',
    'to.postalCode': 'recipientPostalCode',
    'recipient.postalCode': 'recipientPostalCode',
  };
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [names[key] ?? key, value]),
  );
}

export const meta: MetaFunction = () => [{ title: 'Send a parcel · Your shipping account' }];

const SECTIONS: Array<{ legend: string; fields: Array<[string, string, string?]> }> = [
  {
    legend: 'Pickup address',
    fields: [
      ['senderName', 'Name'],
      ['senderAddress', 'Address', 'street-address'],
      ['senderCity', 'City'],
      ['senderPostalCode', 'Postcode'],
      ['senderCountry', 'Country (2-letter code)'],
    ],
  },
  {
    legend: 'Recipient',
    fields: [
      ['recipientName', 'Name'],
      ['recipientAddress', 'Address'],
      ['recipientCity', 'City'],
      ['recipientPostalCode', 'Postcode'],
      ['recipientCountry', 'Country (2-letter code)'],
      ['recipientEmail', 'E-mail (optional)'],
    ],
  },
  {
    legend: 'Parcel',
    fields: [
      ['weight', 'Weight (kg)'],
      ['length', 'Length (cm)'],
      ['width', 'Width (cm)'],
      ['height', 'Height (cm)'],
      ['reference', 'Your reference (optional)'],
    ],
  },
];

const PAYMENT_CHOICES = [
  ['account', 'On account (billed by the monthly statement)'],
  ['card', 'By card now (Stripe Checkout)'],
] as const;

export default function SendParcel() {
  const { defaults, cardOffered } = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>();
  const values = sent?.values ?? defaults;
  const errors = sent?.errors ?? {};
  const quotes = sent?.quotes ?? null;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Send a parcel</h1>
        <Link to="/account/send/bulk" className="btn-secondary">
          Book many from a CSV
        </Link>
      </div>
      {errors['']?.length ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
          {errors[''].join(' ')}
        </p>
      ) : null}
      <Form method="post" className="space-y-6">
        {SECTIONS.map((section) => (
          <fieldset key={section.legend} className="card grid gap-3 p-4 sm:grid-cols-2">
            <legend className="px-1 font-semibold text-gray-900">{section.legend}</legend>
            {section.fields.map(([name, label]) => (
              <label key={name} className="block text-sm font-medium text-gray-700">
                {label}
                <input
                  name={name}
                  defaultValue={values[name] ?? ''}
                  aria-invalid={errors[name] ? true : undefined}
                  className="input mt-1 w-full"
                />
                {errors[name]?.map((message) => (
                  <span key={message} className="field-error block">
                    {message}
                  </span>
                ))}
              </label>
            ))}
          </fieldset>
        ))}
        {quotes?.length ? (
          <fieldset className="card space-y-2 p-4">
            <legend className="px-1 font-semibold text-gray-900">Service</legend>
            {quotes.map((quote, index) => (
              <label key={quote.id} className="flex items-center gap-2">
                <input type="radio" name="quoteId" value={quote.id} defaultChecked={index === 0} />
                <span className="font-medium">{quote.serviceType}</span>
                <span>{formatMoney(quote)}</span>
                <span className="text-sm text-gray-600">
                  · delivered by {quote.estimatedDelivery}
                </span>
              </label>
            ))}
            {errors.quoteId?.map((message) => (
              <span key={message} className="field-error block">
                {message}
              </span>
            ))}
          </fieldset>
        ) : null}
        {quotes?.length && cardOffered ? (
          <fieldset className="card space-y-2 p-4">
            <legend className="px-1 font-semibold text-gray-900">Payment</legend>
            {PAYMENT_CHOICES.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="paymentMethod"
                  value={value}
                  defaultChecked={(values.paymentMethod ?? 'account') === value}
                />
                {label}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="flex gap-3">
          <button
            type="submit"
            name="intent"
            value="price"
            className={quotes?.length ? 'btn-secondary' : 'btn-primary'}
          >
            {quotes?.length ? 'Price again' : 'Show prices'}
          </button>
          {quotes?.length ? (
            <button type="submit" name="intent" value="book" className="btn-primary">
              Book parcel
            </button>
          ) : null}
        </div>
      </Form>
    </div>
  );
}
