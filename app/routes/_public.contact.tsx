import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { FaqAccordion, type FaqItem } from '~/components/public/faq-accordion';
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

const SUCCESS_TOAST = {
  type: 'success',
  title: 'Message sent',
  description: 'Thank you for getting in touch. Our support team replies within 2 hours.',
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const sent = new URL(request.url).searchParams.get('sent') === '1';
  return json({ sent });
}

export function action(args: ActionFunctionArgs) {
  return publicFormAction(args, {
    schema: ContactMessageSchema,
    limiter: contactLimiter,
    tooMany: (minutes) =>
      `You have sent several messages in a short time. Please wait ${minutes} minutes and try again, or call us.`,
    sentPath: '/contact?sent=1#sent',
    toast: SUCCESS_TOAST,
    submit: submitContactMessage,
  });
}

export const meta = publicPageMeta(
  'Contact Us',
  'Call, e-mail or write to our support team, available 24/7. We reply within 2 hours.',
);

const OFFICES = [
  {
    city: 'New York',
    role: 'Headquarters',
    address: ['350 Fifth Avenue, Suite 4100', 'New York, NY 10118', 'United States'],
    hours: 'Mon–Fri 8:00 AM – 8:00 PM ET',
  },
  {
    city: 'Los Angeles',
    role: 'West Coast hub',
    address: ['1200 S Figueroa Street, Suite 900', 'Los Angeles, CA 90015', 'United States'],
    hours: 'Mon–Fri 7:00 AM – 7:00 PM PT',
  },
  {
    city: 'London',
    role: 'Europe, Middle East & Africa',
    address: ['1 Canada Square, Level 30', 'London E14 5AB', 'United Kingdom'],
    hours: 'Mon–Fri 8:00 AM – 6:00 PM GMT',
  },
];

const CONTACT_FAQ: FaqItem[] = [
  {
    question: 'How quickly will I get an answer?',
    answer:
      'Our support team answers every message within 2 hours, around the clock. Urgent questions about a parcel that is out for delivery are fastest by phone.',
  },
  {
    question: 'What should I include in my message?',
    answer:
      'Your tracking number (three letters followed by nine digits, e.g. SWX123456789), the sender and recipient names, and a short description of the problem. Photos help for damage reports.',
  },
  {
    question: 'How do I report a damaged parcel?',
    answer:
      'Tell us within 24 hours of delivery and keep the packaging. We open a claim the same day; formal claims can be filed up to 30 days after delivery.',
  },
  {
    question: 'Can I change the delivery address of a parcel in transit?',
    answer:
      'Usually yes, until the parcel is out for delivery. Contact us with the tracking number and the new address; a redirection may change the delivery estimate.',
  },
];

export default function ContactPage() {
  const { sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useInquiryForm(ContactMessageSchema, lastResult);
  const company = useCompany();
  const phoneHref = `tel:${company.phone.replace(/[^\d+]/g, '')}`;

  const channels = [
    {
      title: 'Call us 24/7',
      detail: (
        <a href={phoneHref} className="font-semibold text-brand-700 hover:underline">
          {company.phone}
        </a>
      ),
      text: 'Day and night, every day of the year, including public holidays.',
    },
    {
      title: 'Email support',
      detail: (
        <a
          href={`mailto:${company.email}`}
          className="font-semibold text-brand-700 [overflow-wrap:anywhere] hover:underline"
        >
          {company.email}
        </a>
      ),
      text: 'We reply to every e-mail within 2 hours.',
    },
    {
      title: 'Send a message',
      detail: (
        <a href="#contact-form" className="font-semibold text-brand-700 hover:underline">
          Use the form below
        </a>
      ),
      text: 'Day or night, a member of our support team replies within 2 hours.',
    },
    {
      title: 'Headquarters',
      detail: <span className="font-semibold text-gray-900">350 Fifth Avenue, Suite 4100</span>,
      text: 'New York, NY 10118, United States',
    },
  ];

  return (
    <>
      <InquiryErrorSummary form={form} fields={fields} lastResult={lastResult} />
      <PageHero eyebrow="Contact" title="Get in touch with our team">
        Questions about a shipment, a quote or an invoice? Our support team is available 24/7 and
        replies to every message within 2 hours.
      </PageHero>

      <section aria-labelledby="channels-heading" className="mx-auto max-w-7xl px-4 py-16">
        <h2 id="channels-heading" className="sr-only">
          Ways to reach us
        </h2>
        <TitledPoints points={channels} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" />
      </section>

      <section aria-labelledby="contact-form-heading" className="bg-white py-16" id="contact-form">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <SectionHeading
              id="contact-form-heading"
              eyebrow="Write to us"
              title="Send us a message"
              align="left"
            >
              Fill in the form and a member of our support team will get back to you within 2 hours.
              For a price on regular shipments, request a quote instead.
            </SectionHeading>
            <p className="mt-6 text-sm text-gray-600">
              Have your tracking number ready if your message is about a parcel. It has three
              letters followed by nine digits, for example SWX123456789.
            </p>
          </div>
          <div className="lg:col-span-3">
            <InquiryForm
              form={form}
              name="contact"
              submitLabel="Send Message"
              sent={
                sent &&
                !lastResult && {
                  title: 'Thank you! Your message has been sent.',
                  text: 'We have received it and will reply by e-mail within 2 hours.',
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

      <PublicSection
        headingId="offices-heading"
        eyebrow="Offices"
        title="Our offices"
        padding="py-16"
        intro={
          <>
            Drop-off counters and account managers in three cities, backed by a network of partner
            depots in more than 200 countries.
          </>
        }
      >
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {OFFICES.map((office) => (
            <li key={office.city} className="card p-6">
              <h3 className="text-xl font-semibold text-gray-900">{office.city}</h3>
              <p className="text-sm font-medium text-accent-700">{office.role}</p>
              <address className="mt-3 not-italic text-gray-700">
                {office.address.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
              <p className="mt-3 text-sm text-gray-600">{office.hours}</p>
            </li>
          ))}
        </ul>
      </PublicSection>

      <PublicSection
        headingId="contact-faq-heading"
        eyebrow="FAQ"
        title="Frequently asked questions"
        band="bg-white"
        width="max-w-3xl"
        padding="py-16"
      >
        <div className="mt-10">
          <FaqAccordion items={CONTACT_FAQ} group="contact-faq" />
        </div>
      </PublicSection>
    </>
  );
}
