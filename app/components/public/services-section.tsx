import { CheckList, Figures, TitledPoints } from './card-lists';
import { PublicSection } from './page-hero';

export const SERVICES = [
  {
    name: 'Ground Shipping',
    icon: 'truck',
    description:
      'Cost-effective road delivery for everyday parcels, with pickup from your door and live tracking at every depot scan.',
    points: [
      'Standard delivery in 3-5 business days',
      'Economy option in 5-10 business days',
      'Parcels up to 70 kg',
    ],
  },
  {
    name: 'Express Air',
    icon: 'plane',
    description:
      'Time-critical documents and parcels flown on the first available departure and delivered by a dedicated driver.',
    points: [
      'Delivery in 1-2 business days',
      'Morning and same-day cut-offs',
      'Signature on delivery',
    ],
  },
  {
    name: 'International',
    icon: 'globe',
    description:
      'Door-to-door delivery to more than 200 countries, with customs paperwork prepared and cleared by our brokers.',
    points: [
      'Delivery in 7-21 days by destination',
      'Duties paid or unpaid',
      'Local last-mile partners',
    ],
  },
  {
    name: 'Freight Services',
    icon: 'pallet',
    description:
      'Pallets and oversized consignments by road, air or sea, with booked delivery slots and liftgate vehicles.',
    points: ['Full and part loads', 'Temperature-controlled options', 'Dedicated account manager'],
  },
] as const;

const STATS = [
  { value: '200+', label: 'Countries served' },
  { value: '99.5%', label: 'On-time delivery' },
  { value: '50,000+', label: 'Happy customers' },
  { value: '2 hours', label: 'Support response time' },
];

const BENEFITS = [
  {
    title: 'Real-time tracking',
    text: 'Every scan, from pickup to the photo proof of delivery, visible with your tracking number.',
  },
  {
    title: 'Insurance included',
    text: 'Declared-value cover on every shipment, with damage claims opened within 24 hours of delivery.',
  },
  {
    title: 'Transparent pricing',
    text: 'One price per shipment, fees shown before you book, no fuel or residential surprises.',
  },
  {
    title: '24/7 support',
    text: 'Real people on the phone day and night, and answers to every e-mail within 2 hours.',
  },
];

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
  return (
    <PublicSection
      headingId={headingId}
      eyebrow="Our services"
      title="Shipping solutions for every parcel"
      band="bg-white"
      intro={
        <>
          From a single envelope to a full truckload, choose the speed and price that fits. Every
          service comes with tracking, insurance and 24/7 support.
        </>
      }
    >
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {SERVICES.map((service) => (
          <li key={service.name} className="card flex flex-col p-6">
            <ServiceIcon name={service.icon} />
            <h3 className="mt-4 text-lg font-semibold text-gray-900">{service.name}</h3>
            <p className="mt-2 flex-1 text-sm text-gray-600">{service.description}</p>
            <CheckList items={service.points} className="mt-4 space-y-1 text-sm text-gray-700" />
          </li>
        ))}
      </ul>

      <Figures figures={STATS} look="band" />

      <TitledPoints
        points={BENEFITS}
        cards={false}
        className="mt-16 grid gap-8 sm:grid-cols-2 lg:grid-cols-4"
      />
    </PublicSection>
  );
}
