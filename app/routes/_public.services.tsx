import { PageHero, PublicSection } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';
import { CheckList } from '~/components/public/card-lists';
import { ServicesSection } from '~/components/public/services-section';
import { DataTable, type Column, type TableLook } from '~/components/ui/data-table';

export const meta = publicPageMeta('pages:services.title', 'pages:services.description');

// The plans and services by their messages' keys (services.plans.<id>, services.times.<key>).
const PLANS = [
  { id: 'basic', price: 'basic', popular: false },
  { id: 'premium', price: 'premium', popular: true },
  { id: 'enterprise', price: null, popular: false },
] as const;

const DELIVERY_TIMES = ['express', 'standard', 'economy', 'international'] as const;

/** A table of the public site: white on the page's colour, like its cards. */
const DELIVERY_TIMES_LOOK: TableLook = {
  table: 'mt-8 w-full overflow-hidden rounded-lg bg-white text-start shadow-sm',
  head: 'bg-gray-100 text-sm text-gray-700',
  body: 'divide-y divide-gray-200',
  cell: 'px-4 py-3',
};

type DeliveryTime = { service: string; time: string };

export default function ServicesPage() {
  const { t, href, values } = usePageText();
  const columns: Column<DeliveryTime>[] = [
    {
      header: t('services.times.service'),
      rowHeader: true,
      cellClassName: 'font-medium text-gray-900',
      cell: (row) => row.service,
    },
    { header: t('services.times.time'), cellClassName: 'text-gray-700', cell: (row) => row.time },
  ];
  return (
    <>
      <PageHero eyebrow={t('services.eyebrow')} title={t('services.heading')}>
        {t('services.intro')}
      </PageHero>

      <ServicesSection />

      <PublicSection
        headingId="delivery-times-heading"
        texts="services.times"
        width="max-w-3xl"
        padding="py-16"
        intro
      >
        <DataTable
          look={DELIVERY_TIMES_LOOK}
          columns={columns}
          rows={DELIVERY_TIMES.map((key) => ({
            service: t(`services.times.${key}`),
            time: t(`services.times.${key}Time`),
          }))}
          rowKey={(row) => row.service}
        />
      </PublicSection>

      <PublicSection headingId="plans-heading" texts="services.plans" band="bg-brand-50" intro>
        <ul className="mt-12 grid gap-8 lg:grid-cols-3">
          {PLANS.map((plan) => {
            const name = t(`services.plans.${plan.id}.name`);
            const cta = plan.price
              ? t('services.plans.choose')
              : t('services.plans.enterprise.cta');
            return (
              <li
                key={plan.id}
                className={`card relative flex flex-col p-8 ${plan.popular ? 'border-2 border-accent-700 shadow-lg' : ''}`}
                aria-labelledby={`plan-${plan.id}`}
              >
                {plan.popular ? (
                  <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent-700 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-white">
                    {t('services.plans.popular')}
                  </p>
                ) : null}
                <h3 id={`plan-${plan.id}`} className="text-xl font-bold text-gray-900">
                  {name}
                </h3>
                <p className="mt-1 text-sm text-gray-600">
                  {t(`services.plans.${plan.id}.summary`)}
                </p>
                <p className="mt-6">
                  <span className="text-4xl font-extrabold text-gray-900">
                    {plan.price ? values[plan.price] : t('services.plans.enterprise.price')}
                  </span>{' '}
                  <span className="text-sm text-gray-600">
                    {plan.price
                      ? t('services.plans.perShipment')
                      : t('services.plans.enterprise.unit')}
                  </span>
                </p>
                <CheckList
                  items={[1, 2, 3, 4, 5].map((n) => t(`services.plans.${plan.id}.feature${n}`))}
                  className="mt-6 flex-1 space-y-2 text-sm text-gray-700"
                />
                <a
                  href={href(`/quote?plan=${plan.id}`)}
                  className={`mt-8 w-full ${plan.popular ? 'btn-accent' : 'btn-primary'}`}
                  aria-label={t('services.plans.ctaLabel', { cta, plan: name })}
                >
                  {cta}
                </a>
              </li>
            );
          })}
        </ul>
      </PublicSection>
    </>
  );
}
