import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { useCompany } from '~/utils/use-company';

export const meta = publicPageMeta(
  'Privacy Policy',
  'What personal data we collect to deliver your parcels, why, how long we keep it and your rights.',
);

export default function PrivacyPolicyPage() {
  const company = useCompany();
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          {company.name} collects only the personal data it needs to pick up, deliver and track
          parcels and to answer your questions. This policy explains what we collect, why, who we
          share it with and the choices you have.
        </p>
      }
      sections={[
        {
          heading: 'Information we collect',
          body: (
            <>
              <ul>
                <li>
                  <strong>Shipment data:</strong> sender and recipient names, addresses, phone
                  numbers and e-mail addresses, parcel weight, dimensions, declared contents and
                  value.
                </li>
                <li>
                  <strong>Delivery records:</strong> tracking scans with time and place, signatures
                  and photos taken as proof of delivery.
                </li>
                <li>
                  <strong>Messages:</strong> what you send us through the contact and quote forms,
                  by e-mail or by phone.
                </li>
                <li>
                  <strong>Newsletter:</strong> your e-mail address, if you subscribe.
                </li>
                <li>
                  <strong>Technical data:</strong> IP address, browser type and the pages you visit,
                  used to keep the site secure and working.
                </li>
              </ul>
            </>
          ),
        },
        {
          heading: 'How we use it',
          body: (
            <ul>
              <li>to collect, transport and deliver shipments and show their tracking status;</li>
              <li>to send e-mail updates about a shipment to its sender or recipient;</li>
              <li>to prepare customs declarations for international shipments;</li>
              <li>to answer questions, quotes and claims, and to issue receipts and invoices;</li>
              <li>
                to send the newsletter you asked for, and to protect our services against fraud and
                abuse.
              </li>
            </ul>
          ),
        },
        {
          heading: 'Legal bases',
          body: (
            <p>
              We process shipment data to perform our contract with the sender, customs data because
              the law requires it, security data in our legitimate interest in protecting our
              services, and newsletter data with your consent, which you can withdraw at any time.
            </p>
          ),
        },
        {
          heading: 'Sharing',
          body: (
            <p>
              We share data only with those who need it to deliver: partner carriers on a route,
              customs authorities, payment processors and our hosting and e-mail providers, all
              bound by contracts that protect your data. We never sell personal data and do not
              share it for advertising.
            </p>
          ),
        },
        {
          heading: 'Retention',
          body: (
            <p>
              Shipment and delivery records are kept for 6 years to meet tax and customs
              obligations. Contact and quote messages are kept for 2 years. Newsletter addresses are
              deleted when you unsubscribe.
            </p>
          ),
        },
        {
          heading: 'International transfers',
          body: (
            <p>
              International shipments require sharing data with carriers and authorities in the
              destination country. Where data leaves the EU or UK, we rely on standard contractual
              clauses or another lawful transfer mechanism.
            </p>
          ),
        },
        {
          heading: 'Your rights',
          body: (
            <p>
              You may ask for a copy of your data, its correction or deletion, restrict or object to
              its use, and receive it in a portable format. Write to {company.email}; we answer
              within 30 days. You may also complain to your data protection authority.
            </p>
          ),
        },
        {
          heading: 'Security and cookies',
          body: (
            <p>
              Data is encrypted in transit, access is limited to staff who need it, and every staff
              sign-in is logged. How we use cookies is described in our{' '}
              <a href="/cookie-policy" className="text-brand-700 underline">
                Cookie Policy
              </a>
              .
            </p>
          ),
        },
        {
          heading: 'Contact',
          body: (
            <p>
              Questions about this policy: {company.email}, {company.phone}, or by post to{' '}
              {company.name}, Privacy Team, 350 Fifth Avenue, Suite 4100, New York, NY 10118, United
              States.
            </p>
          ),
        },
      ]}
    />
  );
}
