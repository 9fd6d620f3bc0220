import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { FaqSection } from '~/components/public/faq-accordion';
import { usePageText } from '~/components/public/page-text';
import { publicPageMeta } from '~/components/public/page-meta';
import {
  InquiryErrorSummary,
  InquiryFields,
  InquiryForm,
  useInquiryForm,
} from '~/components/public/inquiry-form';
import { TitledPoints } from '~/components/public/card-lists';
import { PageHero, PublicSection, SectionHeading } from '~/components/public/page-hero';
import { useCompany } from '~/utils/use-company';
import { ContactMessageSchema } from '~/schemas/public-forms';
import { publicFormAction } from '~/lib/public-form.server';
import { contactLimiter, submitContactMessage } from '~/services/inquiries.server';

export async function loader({ request }: LoaderFunctionArgs) {
  const sent = new URL(request.url).searchParams.get('sent') === '1';
  return json({ sent });
}

export function action(args: ActionFunctionArgs) {
  return publicFormAction(args, {
    schema: ContactMessageSchema,
    limiter: contactLimiter,
    page: 'contact',
    sentPath: '/contact?sent=1#sent',
    submit: submitContactMessage,
  });
}

export const meta = publicPageMeta('pages:contact.title', 'pages:contact.description');

// The offices and questions by their messages' keys (contact.offices.<key>, contact.faq.<key>).
const OFFICES = [
  { key: 'newYork', address: ['350 Fifth Avenue, Suite 4100', 'New York, NY 10118'] },
  { key: 'losAngeles', address: ['1200 S Figueroa Street, Suite 900', 'Los Angeles, CA 90015'] },
  { key: 'london', address: ['1 Canada Square, Level 30', 'London E14 5AB'] },
] as const;

const CONTACT_FAQ = ['speed', 'include', 'damaged', 'address'] as const;

export default function ContactPage() {
  const { sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useInquiryForm(ContactMessageSchema, lastResult);
  const company = useCompany();
  const { t } = usePageText();
  const phoneHref = `tel:${company.phone.replace(/[^\d+]/g, '')}`;

  const channels = [
    {
      title: t('contact.call.title'),
      detail: (
        <a href={phoneHref} className="font-semibold text-brand-700 hover:underline">
          {company.phone}
        </a>
      ),
      text: t('contact.call.text'),
    },
    {
      title: t('contact.email.title'),
      detail: (
        <a
          href={`mailto:${company.email}`}
          className="font-semibold text-brand-700 [overflow-wrap:anywhere] hover:underline"
        >
          {company.email}
        </a>
      ),
      text: t('contact.email.text'),
    },
    {
      title: t('contact.message.title'),
      detail: (
        <a href="#contact-form" className="font-semibold text-brand-700 hover:underline">
          {t('contact.message.detail')}
        </a>
      ),
      text: t('contact.message.text'),
    },
    {
      title: t('contact.headquarters.title'),
      detail: <span className="font-semibold text-gray-900">350 Fifth Avenue, Suite 4100</span>,
      text: t('contact.headquarters.text'),
    },
  ];

  return (
    <>
      <InquiryErrorSummary form={form} fields={fields} lastResult={lastResult} />
      <PageHero eyebrow={t('contact.eyebrow')} title={t('contact.heading')}>
        {t('contact.intro')}
      </PageHero>

      <section aria-labelledby="channels-heading" className="mx-auto max-w-7xl px-4 py-16">
        <h2 id="channels-heading" className="sr-only">
          {t('contact.ways')}
        </h2>
        <TitledPoints points={channels} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" />
      </section>

      <section aria-labelledby="contact-form-heading" className="bg-white py-16" id="contact-form">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <SectionHeading id="contact-form-heading" texts="contact.form" align="left" intro />
            <p className="mt-6 text-sm text-gray-600">{t('contact.form.hint')}</p>
          </div>
          <div className="lg:col-span-3">
            <InquiryForm
              form={form}
              name="contact"
              submitLabel={t('contact.form.submit')}
              sent={
                sent &&
                !lastResult && {
                  title: t('contact.form.sentTitle'),
                  text: t('contact.form.sentText'),
                }
              }
            >
              <InquiryFields of={[fields.firstName, fields.lastName, fields.email, fields.phone]} />
              <InquiryFields of={[fields.subject]} className="sm:col-span-2" />
              <InquiryFields of={[fields.message]} message={{ rows: 6, minLength: 10 }} />
            </InquiryForm>
          </div>
        </div>
      </section>

      <PublicSection headingId="offices-heading" texts="contact.offices" padding="py-16" intro>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {OFFICES.map(({ key, address }) => (
            <li key={key} className="card p-6">
              <h3 className="text-xl font-semibold text-gray-900">
                {t(`contact.offices.${key}.city`)}
              </h3>
              <p className="text-sm font-medium text-accent-700">
                {t(`contact.offices.${key}.role`)}
              </p>
              <address className="mt-3 not-italic text-gray-700">
                {[...address, t(`contact.offices.${key}.country`)].map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
              <p className="mt-3 text-sm text-gray-600">{t(`contact.offices.${key}.hours`)}</p>
            </li>
          ))}
        </ul>
      </PublicSection>

      <FaqSection
        group="contact-faq"
        texts="contact.faq"
        keys={CONTACT_FAQ}
        band="bg-white"
        padding="py-16"
      />
    </>
  );
}
