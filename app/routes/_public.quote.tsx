import { getSelectProps, type SubmissionResult } from '@conform-to/react';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { publicPageMeta } from '~/components/public/page-meta';
import {
  InquiryErrorSummary,
  InquiryFields,
  InquiryForm,
  useInquiryForm,
  useInquiryMessages,
} from '~/components/public/inquiry-form';
import { PageHero } from '~/components/public/page-hero';
import { SelectField } from '~/components/ui/field';
import {
  isQuotePlan,
  QUOTE_PLANS,
  QuoteRequestSchema,
  SHIPMENT_VOLUMES,
  type QuotePlan,
} from '~/schemas/public-forms';
import { publicFormAction } from '~/lib/public-form.server';
import { quoteLimiter, submitQuoteRequest } from '~/services/inquiries.server';
import { publicPrices, quoteClientLimiter } from '~/services/quotes.server';
import { QUOTE_PAGE_FIELDS, QuotePageQuerySchema } from '~/schemas/rate-card';
import { ParcelPrices, type ParcelPricesData } from '~/components/public/parcel-prices';
import { clientAddress } from '~/lib/rate-limit.server';
import { asApiError } from '~/http/api.server';
import { queryLanguage } from '~/lib/i18n.server';
import { usePageText } from '~/components/public/page-text';
import { cardPaymentOffered } from '~/services/card-payments.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const plan = params.get('plan');
  return json({
    plan: isQuotePlan(plan) ? plan : 'not-sure',
    sent: params.get('sent') === '1',
    pricer: await pricesFor(request, clientAddress(context)),
  });
}

/** The pricer's answer to its GET form: nothing until it is filled in, then a price per service. */
async function pricesFor(request: Request, address: string): Promise<ParcelPricesData> {
  const params = new URL(request.url).searchParams;
  const values = Object.fromEntries(
    Object.keys(QUOTE_PAGE_FIELDS).map((name) => [name, params.get(name)?.slice(0, 40) ?? '']),
  );
  const data: ParcelPricesData = {
    values: { ...values, fromCountry: values.fromCountry || 'US' },
    invalid: [],
    problem: null,
    prices: null,
    language: queryLanguage(request),
    cardOffered: cardPaymentOffered(),
  };
  if (!params.has('weight')) return data;
  const parsed = QuotePageQuerySchema.safeParse(values);
  if (!parsed.success) {
    const paths = parsed.error.issues.map((issue) => issue.path.join('.'));
    data.invalid = fieldsAt(paths);
    return data;
  }
  const limit = await quoteClientLimiter.hit(address);
  if (!limit.allowed) return { ...data, problem: 'too-many' };
  try {
    return { ...data, prices: await publicPrices(parsed.data) };
  } catch (error) {
    const refusal = asApiError(error);
    if (!refusal) throw error;
    const notServed = refusal.options.code === 'destination_not_served';
    return {
      ...data,
      invalid: fieldsAt(Object.keys(refusal.details ?? {})),
      problem: notServed ? 'not-served' : 'not-offered',
    };
  }
}

/** The form's fields that the paths of the API's body name. */
function fieldsAt(paths: string[]) {
  return Object.entries(QUOTE_PAGE_FIELDS)
    .filter(([, path]) => paths.some((given) => given === path || path.startsWith(`${given}.`)))
    .map(([name]) => name);
}

export function action(args: ActionFunctionArgs) {
  return publicFormAction(args, {
    schema: QuoteRequestSchema,
    limiter: quoteLimiter,
    page: 'quote',
    sentPath: '/quote?sent=1#sent',
    submit: submitQuoteRequest,
  });
}

export const meta = publicPageMeta('pages:quote.title', 'pages:quote.description');

export default function QuotePage() {
  const { plan, sent, pricer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { form, fields } = useQuoteForm(plan, lastResult);
  const { t, rich, href } = usePageText();

  return (
    <>
      <InquiryErrorSummary form={form} fields={fields} lastResult={lastResult} />
      <PageHero eyebrow={t('quote.eyebrow')} title={t('quote.heading')}>
        {t('quote.intro')}
      </PageHero>
      <ParcelPrices data={pricer} />
      <section
        aria-labelledby="quote-form-heading"
        className="mx-auto grid max-w-7xl gap-12 px-4 py-16 lg:grid-cols-3"
      >
        <div>
          <h2 id="quote-form-heading" className="text-2xl font-bold text-gray-900">
            {t('quote.needs')}
          </h2>
          <p className="mt-3 text-gray-600">{t('quote.prices')}</p>
          <ul className="mt-6 space-y-2 text-sm text-gray-700">
            <li>✓ {t('quote.point1')}</li>
            <li>✓ {t('quote.point2')}</li>
            <li>✓ {t('quote.point3')}</li>
          </ul>
          <p className="mt-6 text-sm text-gray-600">
            {rich('quote.notReady', [
              <a
                key="services"
                href={href('/services')}
                className="font-semibold text-brand-700 underline"
              />,
              <a
                key="contact"
                href={href('/contact')}
                className="font-semibold text-brand-700 underline"
              />,
            ])}
          </p>
        </div>
        <div className="lg:col-span-2">
          <QuoteForm form={form} fields={fields} sent={sent && !lastResult} />
        </div>
      </section>
    </>
  );
}

function useQuoteForm(plan: QuotePlan, lastResult?: SubmissionResult<string[]> | null) {
  const [form, fields] = useInquiryForm(QuoteRequestSchema, lastResult, { plan });
  return { form, fields };
}

function QuoteForm({ form, fields, sent }: ReturnType<typeof useQuoteForm> & { sent: boolean }) {
  const volume = getSelectProps(fields.shipmentsPerMonth);
  const { t } = usePageText();
  const { messages } = useInquiryMessages();
  return (
    <InquiryForm
      form={form}
      name="quote"
      submitLabel={t('quote.submit')}
      className="card p-6"
      submitClassName="btn-accent"
      sent={
        sent && {
          title: t('quote.sentTitle'),
          text: t('quote.sentText'),
        }
      }
    >
      <InquiryFields of={[fields.name, fields.email, fields.phone, fields.company]} />
      <SelectField
        label={t('quote.plan')}
        {...getSelectProps(fields.plan)}
        options={QUOTE_PLANS.map(({ value }) => ({ value, label: t(`quote.plans.${value}`) }))}
        errors={messages(fields.plan.errors)}
      />
      <SelectField
        label={t('quote.volume')}
        {...volume}
        // Until a range is chosen the disabled prompt shows, not the first range.
        defaultValue={volume.defaultValue ?? ''}
        options={SHIPMENT_VOLUMES.map((value) => ({ value, label: t(`quote.volumes.${value}`) }))}
        errors={messages(fields.shipmentsPerMonth.errors)}
      >
        <option value="" disabled>
          {t('quote.chooseRange')}
        </option>
      </SelectField>
      <InquiryFields of={[fields.origin, fields.destination]} />
      <InquiryFields
        of={[fields.message]}
        message={{
          rows: 5,
          placeholder: t('quote.messagePlaceholder'),
        }}
      />
    </InquiryForm>
  );
}
