import { PageHero, PublicSection } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { CheckList } from '~/components/public/card-lists';
import { ServicesSection } from '~/components/public/services-section';
import { DataTable, type Column, type TableLook } from '~/components/ui/data-table';

export const meta = publicPageMeta(
  'Services & Pricing',
  'Ground, Express Air, International and Freight shipping. Plans from $9.99 per shipment, with tracking and insurance included.',
);

const PLANS = [
  {
    id: 'basic',
    name: 'Basic',
    price: '$9.99',
    unit: 'per shipment',
    summary: 'For occasional senders and small online shops.',
    features: [
      'Standard delivery in 3-5 business days',
      'Real-time tracking and e-mail updates',
      'Insurance up to $100 per parcel',
      'Drop-off at any partner point',
      'E-mail support, answered within 2 hours',
    ],
    cta: 'Choose Plan',
    popular: false,
  },
  {
    id: 'premium',
    name: 'Premium',
    price: '$19.99',
    unit: 'per shipment',
    summary: 'For growing businesses that ship every day.',
    features: [
      'Express delivery in 1-2 business days',
      'Free scheduled pickup from your door',
      'Insurance up to $1,000 per parcel',
      'Signature and photo proof of delivery',
      '24/7 phone support with priority routing',
    ],
    cta: 'Choose Plan',
    popular: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: 'Custom',
    unit: 'volume pricing',
    summary: 'For high-volume shippers and freight.',
    features: [
      'All services, including International and Freight',
      'Volume discounts and monthly invoicing',
      'Dedicated account manager',
      'API integration and bulk label creation',
      'Custom insurance and delivery agreements',
    ],
    cta: 'Contact Sales',
    popular: false,
  },
] as const;

const DELIVERY_TIMES = [
  { service: 'Express', time: '1-2 business days' },
  { service: 'Standard', time: '3-5 business days' },
  { service: 'Economy', time: '5-10 business days' },
  { service: 'International', time: '7-21 days' },
];

/** A table of the public site: white on the page's colour, like its cards. */
const DELIVERY_TIMES_LOOK: TableLook = {
  table: 'mt-8 w-full overflow-hidden rounded-lg bg-white text-left shadow-sm',
  head: 'bg-gray-100 text-sm text-gray-700',
  body: 'divide-y divide-gray-200',
  cell: 'px-4 py-3',
};

const DELIVERY_TIME_COLUMNS: Column<(typeof DELIVERY_TIMES)[number]>[] = [
  {
    header: 'Service',
    rowHeader: true,
    cellClassName: 'font-medium text-gray-900',
    cell: (row) => row.service,
  },
  { header: 'Typical delivery time', cellClassName: 'text-gray-700', cell: (row) => row.time },
];

export default function ServicesPage() {
  return (
    <>
      <PageHero eyebrow="Services" title="Shipping services built around your deadlines">
        Whether you send one parcel a year or a thousand a day, pick the speed you need and pay a
        clear price per shipment. Tracking, insurance and 24/7 support are always included.
      </PageHero>

      <ServicesSection />

      <PublicSection
        headingId="delivery-times-heading"
        eyebrow="Delivery times"
        title="How fast will it arrive?"
        width="max-w-3xl"
        padding="py-16"
        intro={
          <>
            Delivery times are estimates counted from pickup and can vary with customs, weather and
            remote destinations.
          </>
        }
      >
        <DataTable
          look={DELIVERY_TIMES_LOOK}
          columns={DELIVERY_TIME_COLUMNS}
          rows={DELIVERY_TIMES}
          rowKey={(row) => row.service}
        />
      </PublicSection>

      <PublicSection
        headingId="plans-heading"
        eyebrow="Pricing"
        title="Choose your plan"
        band="bg-brand-50"
        intro={
          <>
            Simple per-shipment pricing with no monthly fees. Fees are shown before you book and
            paid in advance.
          </>
        }
      >
        <ul className="mt-12 grid gap-8 lg:grid-cols-3">
          {PLANS.map((plan) => (
            <li
              key={plan.id}
              className={`card relative flex flex-col p-8 ${plan.popular ? 'border-2 border-accent-700 shadow-lg' : ''}`}
              aria-labelledby={`plan-${plan.id}`}
            >
              {plan.popular ? (
                <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-700 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-white">
                  Most Popular
                </p>
              ) : null}
              <h3 id={`plan-${plan.id}`} className="text-xl font-bold text-gray-900">
                {plan.name}
              </h3>
              <p className="mt-1 text-sm text-gray-600">{plan.summary}</p>
              <p className="mt-6">
                <span className="text-4xl font-extrabold text-gray-900">{plan.price}</span>{' '}
                <span className="text-sm text-gray-600">{plan.unit}</span>
              </p>
              <CheckList
                items={plan.features}
                className="mt-6 flex-1 space-y-2 text-sm text-gray-700"
              />
              <a
                href={`/quote?plan=${plan.id}`}
                className={`mt-8 w-full ${plan.popular ? 'btn-accent' : 'btn-primary'}`}
                aria-label={`${plan.cta}: ${plan.name}`}
              >
                {plan.cta}
              </a>
            </li>
          ))}
        </ul>
      </PublicSection>
    </>
  );
}
