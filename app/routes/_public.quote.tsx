import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { publicPageMeta } from '~/components/public/page-meta';
import { HoneypotField } from '~/components/public/honeypot-field';
import { PageHero } from '~/components/public/page-hero';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { createQuoteRequest, notifySupportOfInquiry, quoteLimiter } from '~/models/inquiry.server';
import {
  formValues,
  HONEYPOT_FIELD,
  isQuotePlan,
  parseForm,
  QUOTE_PLANS,
  QuoteRequestSchema,
  SHIPMENT_VOLUMES,
  type FieldErrors,
} from '~/schemas/public-forms';
import { redirectWithToast } from '~/services/flash.server';
import { clientAddress } from '~/services/rate-limit.server';

const FIELDS = [
  'name',
  'email',
  'phone',
  'company',
  'plan',
  'shipmentsPerMonth',
  'origin',
  'destination',
  'message',
] as const;

const SUCCESS_TOAST = {
  type: 'success',
  title: 'Quote request received',
  description: 'Thank you. Our sales team will send your quote within 2 hours.',
} as const;

type ActionData = {
  fieldErrors: FieldErrors;
  formErrors?: string[];
  values: Record<string, string>;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const plan = params.get('plan');
  return json({ plan: isQuotePlan(plan) ? plan : 'not-sure', sent: params.get('sent') === '1' });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get(HONEYPOT_FIELD))
    return redirectWithToast(request, '/quote?sent=1', SUCCESS_TOAST);

  const values = formValues(formData, FIELDS);
  const parsed = parseForm(QuoteRequestSchema, values);
  if (!parsed.success)
    return json<ActionData>({ fieldErrors: parsed.fieldErrors, values }, { status: 400 });

  const address = clientAddress(context);
  const limit = await quoteLimiter.hit(address);
  if (!limit.allowed) {
    return json<ActionData>(
      {
        fieldErrors: {},
        formErrors: [
          `You have sent several quote requests in a short time. Please wait ${Math.ceil(limit.retryAfterSeconds / 60)} minutes and try again, or call our sales team.`,
        ],
        values,
      },
      { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    );
  }

  const inquiry = await createQuoteRequest({ ...parsed.data, clientAddress: address });
  await notifySupportOfInquiry(inquiry);
  return redirectWithToast(request, '/quote?sent=1', SUCCESS_TOAST);
}

export const meta: MetaFunction = ({ matches }) =>
  publicPageMeta(
    matches,
    'Get a Quote',
    'Tell us what you ship and where, and get a tailored shipping quote within 2 hours.',
  );

export default function QuotePage() {
  const { plan, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formAction === '/quote';
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};

  return (
    <>
      <PageHero eyebrow="Get Quote" title="Request a shipping quote">
        Tell us what you ship, how often and where to. A sales specialist replies within 2 hours
        with a price for your volume — no obligation.
      </PageHero>
      <section
        aria-labelledby="quote-form-heading"
        className="mx-auto grid max-w-7xl gap-12 px-4 py-16 lg:grid-cols-3"
      >
        <div>
          <h2 id="quote-form-heading" className="text-2xl font-bold text-gray-900">
            Your shipping needs
          </h2>
          <p className="mt-3 text-gray-600">
            Basic costs $9.99 per shipment and Premium $19.99 per shipment. Enterprise pricing
            depends on your volume and lanes; our sales team builds it with you.
          </p>
          <ul className="mt-6 space-y-2 text-sm text-gray-700">
            <li>✓ Express 1-2 days, Standard 3-5 days, Economy 5-10 days</li>
            <li>✓ International delivery to 200+ countries in 7-21 days</li>
            <li>✓ 99.5% of parcels delivered on time</li>
          </ul>
          <p className="mt-6 text-sm text-gray-600">
            Not ready for a quote?{' '}
            <Link to="/services" className="font-semibold text-brand-700 hover:underline">
              Compare our plans
            </Link>{' '}
            or{' '}
            <Link to="/contact" className="font-semibold text-brand-700 hover:underline">
              send us a question
            </Link>
            .
          </p>
        </div>
        <div className="lg:col-span-2">
          {sent && !actionData ? (
            <div
              role="status"
              className="mb-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
            >
              <p className="font-semibold">Thank you! Your quote request has been sent.</p>
              <p className="mt-1 text-sm">Our sales team will e-mail your quote within 2 hours.</p>
            </div>
          ) : null}
          <Form
            method="post"
            action="/quote"
            className="card relative grid gap-5 p-6 sm:grid-cols-2"
            aria-labelledby="quote-form-heading"
          >
            <HoneypotField />
            <div className="sm:col-span-2">
              <FormErrors errors={actionData?.formErrors} />
            </div>
            <Field
              label="Name"
              name="name"
              autoComplete="name"
              required
              maxLength={120}
              defaultValue={values.name}
              errors={errors.name}
            />
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={values.email}
              errors={errors.email}
            />
            <Field
              label="Phone"
              name="phone"
              type="tel"
              autoComplete="tel"
              required
              maxLength={30}
              defaultValue={values.phone}
              errors={errors.phone}
            />
            <Field
              label="Company (optional)"
              name="company"
              autoComplete="organization"
              maxLength={150}
              defaultValue={values.company}
              errors={errors.company}
            />
            <SelectField
              key={plan}
              label="Plan"
              name="plan"
              required
              defaultValue={values.plan || plan}
              errors={errors.plan}
            >
              {QUOTE_PLANS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Shipments per month"
              name="shipmentsPerMonth"
              required
              defaultValue={values.shipmentsPerMonth ?? ''}
              errors={errors.shipmentsPerMonth}
            >
              <option value="" disabled>
                Choose a range
              </option>
              {SHIPMENT_VOLUMES.map((volume) => (
                <option key={volume} value={volume}>
                  {volume}
                </option>
              ))}
            </SelectField>
            <Field
              label="Origin"
              name="origin"
              placeholder="City and country you ship from"
              required
              maxLength={150}
              defaultValue={values.origin}
              errors={errors.origin}
            />
            <Field
              label="Destination"
              name="destination"
              placeholder="Cities, countries or regions you ship to"
              required
              maxLength={150}
              defaultValue={values.destination}
              errors={errors.destination}
            />
            <TextareaField
              className="sm:col-span-2"
              label="Message (optional)"
              name="message"
              rows={5}
              maxLength={5000}
              placeholder="Typical parcel sizes and weights, special handling, delivery deadlines…"
              defaultValue={values.message}
              errors={errors.message}
            />
            <div className="sm:col-span-2">
              <button type="submit" className="btn-accent w-full sm:w-auto" disabled={busy}>
                {busy ? 'Sending...' : 'Request Quote'}
              </button>
            </div>
          </Form>
        </div>
      </section>
    </>
  );
}
