import { FaqSection } from '~/components/public/faq-accordion';
import { HeroCarousel } from '~/components/public/hero-carousel';
import { PublicSection, SectionHeading } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';
import { Figures, TitledPoints } from '~/components/public/card-lists';
import { ServicesSection } from '~/components/public/services-section';
import { TrackingBox } from '~/components/public/tracking-box';

export const meta = publicPageMeta('pages:home.title', 'pages:home.description');

// Each list by its messages' keys (home.<section>.<key>) in app/locales/<language>/pages.json.
const SLIDES = ['fast', 'worldwide', 'tracking'] as const;
const WHY_US = ['onTime', 'tracking', 'handling', 'people'] as const;
const STEPS = ['ordered', 'payment', 'pickup', 'transit', 'delivered'] as const;
const TESTIMONIALS = [
  { key: 'sarah', name: 'Sarah Mitchell' },
  { key: 'david', name: 'David Okafor' },
  { key: 'elena', name: 'Elena Rodríguez' },
] as const;
const FAQ = ['track', 'duration', 'countries', 'damaged', 'address', 'price'] as const;

function StarRating() {
  const { t } = usePageText();
  return (
    <p className="flex items-center gap-0.5 text-accent-500">
      <span className="sr-only">{t('common.stars')}</span>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </p>
  );
}

export default function Home() {
  const { t, rich, href, values } = usePageText();
  const figures = [
    { value: `${values.customers}+`, label: t('common.customers') },
    { value: '200+', label: t('common.countries') },
    { value: '15+', label: t('home.about.experience') },
    { value: '2009', label: t('home.about.founded') },
  ];
  return (
    <>
      <h1 className="sr-only">{t('home.heading')}</h1>
      {/* On a phone the tracking box comes first, above the fold; wider, it overlaps the hero. It
          comes first in the HTML too, so a page drawn while it is still arriving never shows the
          hero first and then pushes it down. */}
      <div className="flex flex-col">
        <div className="px-4 pt-4 sm:order-last sm:pt-0">
          <TrackingBox />
        </div>
        <HeroCarousel
          slides={SLIDES.map((key) => ({
            title: t(`home.slides.${key}.title`),
            subtitle: t(`home.slides.${key}.subtitle`),
            description: t(`home.slides.${key}.description`),
            features: [
              t(`home.slides.${key}.feature1`),
              t(`home.slides.${key}.feature2`),
              t(`home.slides.${key}.feature3`),
            ],
          }))}
        />
      </div>

      <PublicSection headingId="why-heading" texts="home.why" intro>
        <TitledPoints
          points={WHY_US.map((key) => ({
            title: t(`home.why.${key}.title`),
            text: t(`home.why.${key}.text`),
          }))}
        />
      </PublicSection>

      <section aria-labelledby="about-heading" className="bg-white py-20">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 lg:grid-cols-2">
          <div>
            <SectionHeading id="about-heading" texts="home.about" align="left" intro />
            <p className="mt-4 text-gray-600">{t('home.about.text')}</p>
            <a href={href('/about')} className="btn-secondary mt-6">
              {t('home.about.more')}
            </a>
          </div>
          <Figures figures={figures} />
        </div>
      </section>

      <PublicSection headingId="how-heading" texts="home.how">
        <ol className="mt-12 grid gap-6 md:grid-cols-5">
          {STEPS.map((key, index) => (
            <li key={key} className="card p-6">
              <span
                className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold text-gray-900">
                <span className="sr-only">{t('home.how.step', { n: index + 1 })}</span>
                {t(`home.how.${key}.title`)}
              </h3>
              <p className="mt-2 text-sm text-gray-600">{t(`home.how.${key}.text`)}</p>
            </li>
          ))}
        </ol>
      </PublicSection>

      <PublicSection headingId="testimonials-heading" texts="home.testimonials" band="bg-brand-50">
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map(({ key, name }) => (
            <li key={key} className="card flex flex-col p-6">
              <StarRating />
              <blockquote className="mt-4 flex-1 text-gray-700">
                {t('common.quoted', { quote: t(`home.testimonials.${key}.quote`) })}
              </blockquote>
              <p className="mt-6 font-semibold text-gray-900">{name}</p>
              <p className="text-sm text-gray-600">{t(`home.testimonials.${key}.role`)}</p>
            </li>
          ))}
        </ul>
      </PublicSection>

      <ServicesSection />

      <FaqSection
        group="faq"
        texts="home.faq"
        keys={FAQ}
        intro={rich('home.faq.intro', [
          <a
            key="contact"
            href={href('/contact')}
            className="font-semibold text-brand-700 underline"
          />,
        ])}
      />
    </>
  );
}
