import { FaqAccordion, type FaqItem } from '~/components/public/faq-accordion';
import { HeroCarousel, type HeroSlide } from '~/components/public/hero-carousel';
import { PublicSection, SectionHeading } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { Figures, TitledPoints } from '~/components/public/card-lists';
import { ServicesSection } from '~/components/public/services-section';
import { TrackingBox } from '~/components/public/tracking-box';
import { useCompany } from '~/utils/use-company';

export const meta = publicPageMeta(
  'Fast, reliable parcel delivery worldwide',
  'Ship parcels to 200+ countries with real-time tracking, 99.5% on-time delivery and 24/7 support.',
);

const SLIDES: HeroSlide[] = [
  {
    title: 'Fast & Reliable Delivery',
    subtitle: 'Express shipping in 1-2 days',
    description:
      'Time-critical parcels picked up from your door and delivered by dedicated drivers, with 99.5% of shipments arriving on time.',
    features: ['Same-day pickup', 'Express 1-2 days', '99.5% on-time'],
  },
  {
    title: 'Worldwide Shipping',
    subtitle: 'Over 200 countries and territories',
    description:
      'Door-to-door international delivery in 7-21 days, with customs paperwork prepared and cleared by our own brokers.',
    features: ['200+ countries', 'Customs clearance', 'Duties paid options'],
  },
  {
    title: 'Track Every Step',
    subtitle: 'Real-time visibility, 24/7',
    description:
      'Follow every scan from pickup to doorstep with one tracking number, and receive a photo proof of delivery when it arrives.',
    features: ['Live status updates', 'E-mail notifications', 'Proof of delivery'],
  },
];

const WHY_US = [
  {
    title: 'On time, every time',
    text: '99.5% of our parcels arrive on or before the promised day, backed by a money-back guarantee on Express.',
  },
  {
    title: 'Tracking you can trust',
    text: 'Every hand-over is scanned and published within minutes, so the status you see is where your parcel is.',
  },
  {
    title: 'Careful handling',
    text: 'Trained handlers, padded vehicles and declared-value insurance on every shipment, fragile or not.',
  },
  {
    title: 'People who answer',
    text: 'Support is staffed 24/7 by our own team; e-mails are answered within 2 hours, calls in under a minute.',
  },
];

const STEPS = [
  {
    title: 'Order placed',
    text: 'Book online or by phone and tell us what you are sending, from where and to whom.',
  },
  {
    title: 'Payment',
    text: 'Pay the shown price in advance by card or on account; no hidden fees are added later.',
  },
  {
    title: 'Pickup scheduled',
    text: 'Choose a pickup slot; a driver collects the parcel at your door and gives it a tracking number.',
  },
  {
    title: 'In-transit tracking',
    text: 'Follow every scan between depots, flights and customs in real time, with e-mail updates.',
  },
  {
    title: 'Delivered with proof',
    text: 'The recipient signs, and a delivery photo and timestamp are added to the tracking record.',
  },
];

const TESTIMONIALS = [
  {
    quote:
      'We ship around 400 orders a week to customers in 30 countries. Parcels arrive when promised, and when a customs form was missing their team fixed it the same morning.',
    name: 'Sarah Mitchell',
    role: 'Operations Manager, Northwind Home Goods',
  },
  {
    quote:
      'I sent my daughter’s university documents to London on Express Air and could see every scan. They were signed for in under two days.',
    name: 'David Okafor',
    role: 'Private customer, Chicago',
  },
  {
    quote:
      'Switching our B2B deliveries to their freight service cut failed deliveries to almost zero. Booked slots and proof of delivery make invoicing painless.',
    name: 'Elena Rodríguez',
    role: 'Supply Chain Lead, Brightline Medical',
  },
];

const FAQ: FaqItem[] = [
  {
    question: 'How do I track my package?',
    answer:
      'Enter your tracking number — three letters followed by nine digits, such as SWX123456789 — in the tracking box on this page or on the Track Package page. You will see the current status and every scan so far.',
  },
  {
    question: 'How long does delivery take?',
    answer:
      'Express delivers in 1-2 business days, Standard in 3-5 and Economy in 5-10. International shipments take 7-21 days depending on the destination and customs.',
  },
  {
    question: 'Which countries do you ship to?',
    answer:
      'We deliver to more than 200 countries and territories. A few destinations under sanctions or embargo are excluded; our team will tell you before you book.',
  },
  {
    question: 'What happens if my parcel is damaged?',
    answer:
      'Report damage within 24 hours of delivery and keep the packaging. Every shipment carries declared-value insurance, and formal claims can be filed up to 30 days after delivery.',
  },
  {
    question: 'Can I change the delivery address after shipping?',
    answer:
      'Yes, until the parcel is out for delivery. Contact support with your tracking number and the new address; a redirection may change the delivery estimate.',
  },
  {
    question: 'How do I get a price for regular shipments?',
    answer:
      'Basic costs $9.99 and Premium $19.99 per shipment. For higher volumes, request a quote and our sales team will reply within 2 hours with Enterprise pricing.',
  },
];

function StarRating() {
  return (
    <p className="flex items-center gap-0.5 text-accent-500">
      <span className="sr-only">Rated 5 out of 5 stars</span>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </p>
  );
}

const FIGURES = [
  { value: '50,000+', label: 'Customers' },
  { value: '200+', label: 'Countries' },
  { value: '15+', label: 'Years of experience' },
  { value: '2009', label: 'Founded' },
];

export default function Home() {
  const company = useCompany();
  return (
    <>
      <h1 className="sr-only">
        {company.name}: fast, reliable parcel delivery and tracking worldwide
      </h1>
      {/* On a phone the tracking box comes first, above the fold; wider, it overlaps the hero. It
          comes first in the HTML too, so a page drawn while it is still arriving never shows the
          hero first and then pushes it down. */}
      <div className="flex flex-col">
        <div className="px-4 pt-4 sm:order-last sm:pt-0">
          <TrackingBox />
        </div>
        <HeroCarousel slides={SLIDES} />
      </div>

      <PublicSection
        headingId="why-heading"
        eyebrow="Why choose us"
        title={`Why choose ${company.name}?`}
        intro={
          <>
            Businesses and families trust us with the parcels that matter because we combine speed
            with care — and tell you exactly where things are.
          </>
        }
      >
        <TitledPoints points={WHY_US} />
      </PublicSection>

      <section aria-labelledby="about-heading" className="bg-white py-20">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 lg:grid-cols-2">
          <div>
            <SectionHeading
              id="about-heading"
              eyebrow="About us"
              title="Delivering since 2009"
              align="left"
            >
              {company.name} was founded in 2009 in New York with three vans and one promise: every
              parcel on time, and every customer told where it is.
            </SectionHeading>
            <p className="mt-4 text-gray-600">
              Today our own drivers, hubs and partner carriers move parcels for more than 50,000
              customers — online shops, hospitals, law firms and families sending gifts home — to
              over 200 countries.
            </p>
            <a href="/about" className="btn-secondary mt-6">
              More about us
            </a>
          </div>
          <Figures figures={FIGURES} />
        </div>
      </section>

      <PublicSection
        headingId="how-heading"
        eyebrow="How it works"
        title="From order to doorstep in five steps"
      >
        <ol className="mt-12 grid gap-6 md:grid-cols-5">
          {STEPS.map((step, index) => (
            <li key={step.title} className="card p-6">
              <span
                className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold text-gray-900">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm text-gray-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </PublicSection>

      <PublicSection
        headingId="testimonials-heading"
        eyebrow="Testimonials"
        title="What our customers say"
        band="bg-brand-50"
      >
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name} className="card flex flex-col p-6">
              <StarRating />
              <blockquote className="mt-4 flex-1 text-gray-700">“{t.quote}”</blockquote>
              <p className="mt-6 font-semibold text-gray-900">{t.name}</p>
              <p className="text-sm text-gray-600">{t.role}</p>
            </li>
          ))}
        </ul>
      </PublicSection>

      <ServicesSection />

      <PublicSection
        headingId="faq-heading"
        eyebrow="FAQ"
        title="Frequently asked questions"
        width="max-w-3xl"
        intro={
          <>
            Can’t find your answer?{' '}
            <a href="/contact" className="font-semibold text-brand-700 underline">
              Contact our team
            </a>
            , available 24/7.
          </>
        }
      >
        <div className="mt-10">
          <FaqAccordion items={FAQ} group="faq" />
        </div>
      </PublicSection>
    </>
  );
}
