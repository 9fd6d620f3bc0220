import { Figures, TitledPoints } from '~/components/public/card-lists';
import { PageHero, PublicSection, SectionHeading } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';

export const meta = publicPageMeta('pages:about.title', 'pages:about.description');

// The milestones by year, and the values by their messages' keys (about.values.<key>).
const TIMELINE = ['2009', '2012', '2015', '2017', '2020', '2022', '2024'] as const;
const VALUES = ['reliability', 'transparency', 'care', 'responsibility'] as const;

export default function AboutPage() {
  const { t, href, values } = usePageText();
  const stats = [
    { value: `${values.customers}+`, label: t('common.customers') },
    { value: '200+', label: t('common.countriesServed') },
    { value: values.onTime, label: t('common.onTimeDelivery') },
    { value: '15+', label: t('about.yearsInBusiness') },
  ];
  return (
    <>
      <PageHero eyebrow={t('about.eyebrow')} title={t('about.heading')}>
        {t('about.intro')}
      </PageHero>

      <section
        aria-labelledby="story-heading"
        className="mx-auto grid max-w-7xl gap-12 px-4 py-20 lg:grid-cols-2"
      >
        <div>
          <SectionHeading id="story-heading" texts="about.story" align="left" />
          <div className="mt-6 space-y-4 text-gray-700">
            <p>{t('about.story.p1')}</p>
            <p>{t('about.story.p2')}</p>
            <p>{t('about.story.p3')}</p>
          </div>
        </div>
        <Figures figures={stats} className="self-center" />
      </section>

      <section aria-label={t('about.missionAndVision')} className="bg-white py-20">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 md:grid-cols-2">
          <div className="card p-8">
            <h2 className="text-2xl font-bold text-gray-900">{t('about.mission.title')}</h2>
            <p className="mt-4 text-gray-700">{t('about.mission.text')}</p>
          </div>
          <div className="card p-8">
            <h2 className="text-2xl font-bold text-gray-900">{t('about.vision.title')}</h2>
            <p className="mt-4 text-gray-700">{t('about.vision.text')}</p>
          </div>
        </div>
      </section>

      <PublicSection headingId="timeline-heading" texts="about.timeline" width="max-w-4xl">
        <ol className="relative mt-12 space-y-8 border-s-2 border-brand-100 ps-8">
          {TIMELINE.map((year) => (
            <li key={year} className="relative">
              <span
                aria-hidden="true"
                className="absolute -start-[41px] top-1 h-4 w-4 rounded-full border-4 border-white bg-brand-600"
              />
              <h3 className="text-lg font-bold text-brand-700">{year}</h3>
              <p className="mt-1 text-gray-700">{t(`about.timeline.${year}`)}</p>
            </li>
          ))}
        </ol>
      </PublicSection>

      <PublicSection headingId="values-heading" texts="about.values" band="bg-brand-50">
        <TitledPoints
          points={VALUES.map((key) => ({
            title: t(`about.values.${key}.title`),
            text: t(`about.values.${key}.text`),
          }))}
        />
        <p className="mt-12 text-center">
          <a href={href('/contact')} className="btn-primary">
            {t('about.values.talk')}
          </a>
        </p>
      </PublicSection>
    </>
  );
}
