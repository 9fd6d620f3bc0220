import { CheckList, Figures, TitledPoints } from './card-lists';
import { PublicSection } from './page-hero';
import { usePageText } from './page-text';

/** The four services, each by its messages' key (`servicesSection.<key>`) and its icon. */
const SERVICES = [
  { key: 'ground', icon: 'truck' },
  { key: 'express', icon: 'plane' },
  { key: 'international', icon: 'globe' },
  { key: 'freight', icon: 'pallet' },
] as const;

const BENEFITS = ['tracking', 'insurance', 'pricing', 'support'] as const;

// Inline icons: emoji render as empty boxes on phones and browsers without colour-emoji fonts.
const ICON_PATHS: Record<(typeof SERVICES)[number]['icon'], string> = {
  truck:
    'M1 6h13v10H1zM14 10h5l3 3v3h-8zM5 20a2 2 0 100-4 2 2 0 000 4zM18 20a2 2 0 100-4 2 2 0 000 4z',
  plane: 'M2 13l8-2 5-8h2l-2 8 5 1 2-2h1l-1 4 1 4h-1l-2-2-5 1 2 8h-2l-5-8-8-2z',
  globe:
    'M12 21a9 9 0 100-18 9 9 0 000 18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z',
  pallet: 'M3 7l9-4 9 4v10l-9 4-9-4zM3 7l9 4 9-4M12 11v10',
};

function ServiceIcon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <span
      aria-hidden="true"
      className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600"
    >
      <svg
        viewBox="0 0 24 24"
        className="h-7 w-7"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      >
        <path d={ICON_PATHS[name]} />
      </svg>
    </span>
  );
}

/** The four services, the figures block and the benefits; shown on the home and services pages. */
export function ServicesSection({ headingId = 'services-heading' }: { headingId?: string }) {
  const { t, values } = usePageText();
  const stats = [
    { value: '200+', label: t('common.countriesServed') },
    { value: values.onTime, label: t('common.onTimeDelivery') },
    { value: `${values.customers}+`, label: t('servicesSection.happyCustomers') },
    { value: t('servicesSection.responseTime'), label: t('servicesSection.responseTimeLabel') },
  ];
  return (
    <PublicSection headingId={headingId} texts="servicesSection" band="bg-white" intro>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {SERVICES.map(({ key, icon }) => (
          <li key={key} className="card flex flex-col p-6">
            <ServiceIcon name={icon} />
            <h3 className="mt-4 text-lg font-semibold text-gray-900">
              {t(`servicesSection.${key}.name`)}
            </h3>
            <p className="mt-2 flex-1 text-sm text-gray-600">
              {t(`servicesSection.${key}.description`)}
            </p>
            <CheckList
              items={[1, 2, 3].map((n) => t(`servicesSection.${key}.point${n}`))}
              className="mt-4 space-y-1 text-sm text-gray-700"
            />
          </li>
        ))}
      </ul>

      <Figures figures={stats} look="band" />

      <TitledPoints
        points={BENEFITS.map((key) => ({
          title: t(`servicesSection.${key}.title`),
          text: t(`servicesSection.${key}.text`),
        }))}
        cards={false}
        className="mt-16 grid gap-8 sm:grid-cols-2 lg:grid-cols-4"
      />
    </PublicSection>
  );
}
