import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { HoneypotField } from '~/components/public/honeypot-field';
import { PageHero } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { asApiError } from '~/http/api.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import { queryLanguage } from '~/lib/i18n.server';
import { clientAddress } from '~/lib/rate-limit.server';
import { getOpenPublicQuote } from '~/models/quote.server';
import { BOOKING_FIELDS, BookAndPaySchema, BookingFormSchema } from '~/schemas/booking';
import { supportedLanguage } from '~/schemas/languages';
import { HONEYPOT_FIELD } from '~/schemas/public-forms';
import { cardPaymentOffered } from '~/services/card-payments.server';
import { createQuotes, quoteClientLimiter } from '~/services/quotes.server';
import { bookAsVisitor, bookingLimiter } from '~/services/visitor-bookings.server';
import { formatMoney } from '~/utils/money';

/**
 * A visitor books a parcel and pays by card, without an account (only when card payment is
 * offered). "Book and pay" under a price on /quote posts here and the price is held as a quote;
 * the booking form names the sender and the recipient, the parcel is booked at the quote's price
 * and the visitor goes on to Stripe Checkout's page. Plain forms and server redirects: it works
 * without JavaScript, like every public page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!cardPaymentOffered()) throw new Response('Not Found', { status: 404 });
  const quote = await getOpenPublicQuote(new URL(request.url).searchParams.get('quote') ?? '');
  return json({
    language: queryLanguage(request),
    quote: quote && {
      id: quote.id,
      serviceType: quote.serviceType,
      amount: quote.amount,
      currency: quote.currency,
      estimatedDelivery: quote.estimatedDelivery,
      from: quote.from,
      to: quote.to,
      weight: quote.weight,
      dimensions: quote.dimensions,
    },
  });
}

type BookingAnswer = { reply: FormReply | null; problem: string | null };

export async function action({ request, context }: ActionFunctionArgs) {
  if (!cardPaymentOffered()) throw new Response('Not Found', { status: 404 });
  const formData = await readFormData(request);
  const language = supportedLanguage(String(formData.get('lang') ?? ''));
  const withLanguage = (path: string) =>
    language ? `${path}${path.includes('?') ? '&' : '?'}lang=${language}` : path;
  const address = clientAddress(context);
  const refuse = (status: number, problem: string, reply: FormReply | null = null) =>
    json<BookingAnswer>({ reply, problem }, { status });

  if (formData.get('intent') === 'quote') {
    // "Book and pay" under a price: that price is held as a quote, then the booking form opens.
    const chosen = BookAndPaySchema.safeParse(Object.fromEntries(formData));
    if (!chosen.success) return refuse(400, 'expired');
    const limit = await quoteClientLimiter.hit(address);
    if (!limit.allowed) return refuse(429, 'too-many');
    try {
      const [quote] = await createQuotes(chosen.data);
      return redirect(withLanguage(`/book?quote=${quote!.id}`), 303);
    } catch (error) {
      if (!asApiError(error)) throw error;
      return refuse(400, 'expired');
    }
  }

  if (formData.get(HONEYPOT_FIELD)) return redirect(withLanguage('/quote'), 303);
  const submission = parseWithZod(formData, { schema: BookingFormSchema });
  if (submission.status !== 'success')
    return invalidForm(submission, { into: (reply) => ({ reply, problem: null }) });
  const limit = await bookingLimiter.hit(address);
  if (!limit.allowed)
    return invalidForm(submission, {
      status: 429,
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
      into: (reply) => ({ reply, problem: 'too-many' }),
    });
  try {
    const parcel = await bookAsVisitor(submission.value, address);
    return redirect(parcel.payment!.checkoutUrl!, 303);
  } catch (error) {
    const refusal = asApiError(error);
    if (!refusal) throw error;
    const problem =
      refusal.status === 503 ? 'unavailable' : refusal.details?.quoteId ? 'expired' : 'refused';
    return invalidForm(submission, {
      status: refusal.status,
      into: (reply) => ({ reply, problem }),
    });
  }
}

export const meta = publicPageMeta('book.title', 'book.metaDescription', { index: false });

const FIELD_KIND = (name: string) =>
  name.replace(/^(sender|recipient)/, '').toLowerCase() as
    'name' | 'email' | 'phone' | 'address' | 'city';
const AUTOCOMPLETE: Record<string, string> = {
  name: 'name',
  email: 'email',
  phone: 'tel',
  address: 'street-address',
  city: 'address-level2',
};
const OPTIONAL = new Set(['recipientEmail', 'recipientPhone']);

export default function BookPage() {
  const { quote, language } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t, i18n } = useTranslation('public');
  const locale = i18n.language;
  const reply = answer?.reply ?? null;
  const values = (reply?.initialValue ?? {}) as Record<string, string>;
  const errors = reply?.error ?? {};
  const problem = answer?.problem ?? null;
  const day = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(
      new Date(`${iso}T00:00:00Z`),
    );

  return (
    <>
      <PageHero eyebrow={t('book.title')} title={t('book.heading')}>
        {t('book.intro')}
      </PageHero>
      <section aria-labelledby="booking-heading" className="mx-auto max-w-3xl px-4 py-12">
        {problem ? (
          <p
            role="alert"
            className="mb-6 rounded-md border border-red-200 bg-red-50 p-3 text-red-800"
          >
            {t(`book.problem.${problem}`)}
          </p>
        ) : null}
        {!quote ? (
          <p className="text-gray-700">
            {t('book.noQuote')}{' '}
            <a
              href={language ? `/quote?lang=${language}` : '/quote'}
              className="font-semibold text-brand-700 underline"
            >
              {t('book.priceAgain')}
            </a>
          </p>
        ) : (
          <form method="post" action={`/book?quote=${quote.id}`} className="space-y-6" noValidate>
            <div className="card p-6">
              <h2 id="booking-heading" className="text-xl font-bold text-gray-900">
                {t(`service.${quote.serviceType}`)} · {formatMoney(quote, locale)}
              </h2>
              <p className="mt-1 text-gray-700">
                {t('book.parcel', {
                  weight: quote.weight,
                  length: quote.dimensions.length,
                  width: quote.dimensions.width,
                  height: quote.dimensions.height,
                  from: `${quote.from.country} ${quote.from.postalCode}`.trim(),
                  to: `${quote.to.country} ${quote.to.postalCode}`.trim(),
                })}
              </p>
              <p className="mt-1 text-sm text-gray-600">
                {t('prices.delivery', { day: day(quote.estimatedDelivery) })}
              </p>
            </div>
            <input type="hidden" name="quoteId" value={quote.id} />
            {language ? <input type="hidden" name="lang" value={language} /> : null}
            <HoneypotField />
            {(['sender', 'recipient'] as const).map((party) => (
              <fieldset key={party} className="card grid gap-4 p-6 sm:grid-cols-2">
                <legend className="px-1 font-semibold text-gray-900">{t(`book.${party}`)}</legend>
                {BOOKING_FIELDS[party].map((name) => {
                  const kind = FIELD_KIND(name);
                  const fieldErrors = errors[name];
                  return (
                    <label key={name} className="block text-sm font-medium text-gray-700">
                      {t(`book.field.${kind}`)}
                      {OPTIONAL.has(name) ? ` ${t('book.field.optional')}` : null}
                      <input
                        name={name}
                        type={kind === 'email' ? 'email' : kind === 'phone' ? 'tel' : 'text'}
                        defaultValue={values[name] ?? ''}
                        required={!OPTIONAL.has(name)}
                        autoComplete={`${party === 'recipient' ? 'shipping ' : ''}${AUTOCOMPLETE[kind]}`}
                        aria-invalid={fieldErrors ? true : undefined}
                        aria-describedby={fieldErrors ? `${name}-error` : undefined}
                        className="input mt-1 w-full"
                      />
                      {fieldErrors ? (
                        <span id={`${name}-error`} className="field-error block">
                          {t(values[name] ? 'book.invalid' : 'book.required')}
                        </span>
                      ) : null}
                    </label>
                  );
                })}
                <p className="text-sm text-gray-600 sm:col-span-2">
                  {t('book.postcode', {
                    place:
                      party === 'sender'
                        ? `${quote.from.postalCode} ${quote.from.country}`.trim()
                        : `${quote.to.postalCode} ${quote.to.country}`.trim(),
                  })}
                </p>
              </fieldset>
            ))}
            <p className="text-sm text-gray-600">{t('book.payNote')}</p>
            <button type="submit" className="btn-accent">
              {t('book.submit')}
            </button>
          </form>
        )}
      </section>
    </>
  );
}
