import { Figures, TitledPoints } from '~/components/public/card-lists';
import { PageHero, PublicSection, SectionHeading } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { useCompany } from '~/utils/use-company';

export const meta = publicPageMeta(
  'About Us',
  'Founded in 2009 in New York, we deliver for 50,000+ customers in 200+ countries with 99.5% on-time delivery.',
);

const STATS = [
  { value: '50,000+', label: 'Customers' },
  { value: '200+', label: 'Countries served' },
  { value: '99.5%', label: 'On-time delivery' },
  { value: '15+', label: 'Years in business' },
];

const TIMELINE = [
  {
    year: '2009',
    text: 'Founded in New York with three vans, delivering same-day documents for Manhattan law firms.',
  },
  {
    year: '2012',
    text: 'Opened our Los Angeles hub and launched coast-to-coast Express Air in 1-2 days.',
  },
  {
    year: '2015',
    text: 'Launched real-time tracking: every scan published online within minutes.',
  },
  {
    year: '2017',
    text: 'Opened our London office and began international delivery to more than 100 countries.',
  },
  {
    year: '2020',
    text: 'Added photo proof of delivery and contact-free handovers; passed 20,000 business customers.',
  },
  {
    year: '2022',
    text: 'Launched Freight Services for pallets and oversized shipments by road, air and sea.',
  },
  {
    year: '2024',
    text: 'Reached 200+ countries and 50,000+ customers, with 99.5% of parcels delivered on time.',
  },
];

const VALUES = [
  {
    title: 'Reliability',
    text: 'We promise delivery dates we can keep, and we keep them: 99.5% of parcels arrive on time.',
  },
  {
    title: 'Transparency',
    text: 'Clear prices paid up front, and every scan of every parcel visible to the people who care about it.',
  },
  {
    title: 'Care',
    text: 'We handle each parcel as if it were our own, and answer every customer within 2 hours.',
  },
  {
    title: 'Responsibility',
    text: 'Consolidated routes, electric vans in city centres and recycled packaging cut our emissions every year.',
  },
];

export default function AboutPage() {
  const company = useCompany();
  return (
    <>
      <PageHero eyebrow="About us" title={`About ${company.name}`}>
        Since 2009 we have delivered what matters to people and businesses — on time, handled with
        care, and tracked at every step.
      </PageHero>

      <section
        aria-labelledby="story-heading"
        className="mx-auto grid max-w-7xl gap-12 px-4 py-20 lg:grid-cols-2"
      >
        <div>
          <SectionHeading
            id="story-heading"
            eyebrow="Our story"
            title="From three vans to 200+ countries"
            align="left"
          />
          <div className="mt-6 space-y-4 text-gray-700">
            <p>
              {company.name} started in 2009 in a small New York depot. Our founders had spent years
              in logistics watching customers phone around to find out where their parcels were, and
              built a courier around one idea: delivering on time is only half the job — the other
              half is telling people where things are.
            </p>
            <p>
              We scanned every hand-over from the first day, long before live tracking was common.
              That discipline let us grow from same-day document runs to Express Air across the
              country, international delivery from our London office, and freight for pallets and
              oversized goods.
            </p>
            <p>
              Today more than 50,000 customers, from one-person online shops to hospital groups,
              rely on our drivers, hubs and partner carriers in over 200 countries.
            </p>
          </div>
        </div>
        <Figures figures={STATS} className="self-center" />
      </section>

      <section aria-label="Mission and vision" className="bg-white py-20">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 md:grid-cols-2">
          <div className="card p-8">
            <h2 className="text-2xl font-bold text-gray-900">Our mission</h2>
            <p className="mt-4 text-gray-700">
              To make sending a parcel anywhere in the world as simple and predictable as sending it
              across town: a clear price, a delivery date we keep, and full visibility from pickup
              to proof of delivery.
            </p>
          </div>
          <div className="card p-8">
            <h2 className="text-2xl font-bold text-gray-900">Our vision</h2>
            <p className="mt-4 text-gray-700">
              A delivery network where no parcel is ever lost from view, where every customer can
              reach a person who knows their shipment, and where fast delivery does not cost the
              planet.
            </p>
          </div>
        </div>
      </section>

      <PublicSection
        headingId="timeline-heading"
        eyebrow="Our journey"
        title="Milestones from 2009 to 2024"
        width="max-w-4xl"
      >
        <ol className="relative mt-12 space-y-8 border-l-2 border-brand-100 pl-8">
          {TIMELINE.map((entry) => (
            <li key={entry.year} className="relative">
              <span
                aria-hidden="true"
                className="absolute -left-[41px] top-1 h-4 w-4 rounded-full border-4 border-white bg-brand-600"
              />
              <h3 className="text-lg font-bold text-brand-700">{entry.year}</h3>
              <p className="mt-1 text-gray-700">{entry.text}</p>
            </li>
          ))}
        </ol>
      </PublicSection>

      <PublicSection
        headingId="values-heading"
        eyebrow="Our values"
        title="What we stand for"
        band="bg-brand-50"
      >
        <TitledPoints points={VALUES} />
        <p className="mt-12 text-center">
          <a href="/contact" className="btn-primary">
            Talk to our team
          </a>
        </p>
      </PublicSection>
    </>
  );
}
