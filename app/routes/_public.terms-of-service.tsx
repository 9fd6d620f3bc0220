import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { useCompany } from '~/utils/use-company';

export const meta = publicPageMeta(
  'Terms of Service',
  'The terms that apply when you ship with us: fees, delivery estimates, liability and claims.',
);

export default function TermsOfServicePage() {
  const company = useCompany();
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <>
          <p>
            These terms govern every shipment booked with {company.name} (“we”, “us”) through our
            website, by phone, by API or at a partner drop-off point, and your use of our website
            and tracking tools. By booking a shipment you accept them on behalf of yourself and,
            where you ship for a business, that business.
          </p>
        </>
      }
      sections={[
        {
          heading: 'Our services',
          body: (
            <p>
              We collect, transport and deliver parcels and freight by the service you choose
              (Express, Standard, Economy, International or Freight) and publish the tracking events
              of each shipment. We may use partner carriers for parts of a route, particularly for
              international last-mile delivery; these terms still apply to the whole journey.
            </p>
          ),
        },
        {
          heading: 'Booking and your responsibilities',
          body: (
            <>
              <p>When you book a shipment you confirm that:</p>
              <ul>
                <li>
                  the sender and recipient details, weight and dimensions you give are accurate;
                </li>
                <li>
                  the contents are packed to survive normal handling, and are described truthfully
                  for customs;
                </li>
                <li>
                  the parcel contains no prohibited items (including explosives, flammable liquids,
                  weapons, illegal drugs, cash and live animals) or restricted items we have not
                  agreed to carry in writing.
                </li>
              </ul>
              <p>
                We may open, hold or return a parcel if we reasonably believe it breaks these rules
                or the law, and we may charge the cost of doing so.
              </p>
            </>
          ),
        },
        {
          heading: 'Fees and payment',
          body: (
            <>
              <p>
                All fees are paid in advance, before the shipment is collected, unless you hold an
                Enterprise account with agreed monthly invoicing. Prices are shown before you book:
                Basic $9.99 per shipment, Premium $19.99 per shipment, and Enterprise prices as
                agreed in writing.
              </p>
              <p>
                If the declared weight or size is lower than what we measure, we charge the
                difference. Import duties, taxes and customs fees are payable by the recipient
                unless the shipment was booked duties-paid.
              </p>
            </>
          ),
        },
        {
          heading: 'Delivery times',
          body: (
            <p>
              Delivery times are estimates only and are not guaranteed. Typical times are 1-2
              business days for Express, 3-5 for Standard, 5-10 for Economy and 7-21 days for
              International shipments, counted from pickup. Customs checks, weather, strikes,
              incorrect addresses and other events outside our control can delay a delivery; we are
              not liable for losses caused by a late delivery except where the law requires it.
            </p>
          ),
        },
        {
          heading: 'Delivery and failed delivery',
          body: (
            <p>
              We deliver to the address given and may obtain a signature or a photo as proof of
              delivery. If nobody is available, we make up to two further attempts or leave the
              parcel at a nearby partner point, and tell the recipient how to collect it. Parcels
              not collected within 14 days are returned to the sender at the sender’s cost.
            </p>
          ),
        },
        {
          heading: 'Liability and insurance',
          body: (
            <p>
              Every shipment is insured for its declared value up to the limit of your plan ($100
              for Basic, $1,000 for Premium, as agreed for Enterprise). Our liability for loss or
              damage is limited to that amount and never includes indirect losses such as lost
              profit. Nothing in these terms limits liability that cannot be limited by law.
            </p>
          ),
        },
        {
          heading: 'Claims',
          body: (
            <>
              <p>
                Visible damage should be reported within 24 hours of delivery, keeping the parcel
                and its packaging for inspection. Any claim for loss, damage or delay must be made
                in writing within 30 days after delivery (or, for a lost parcel, after the estimated
                delivery date). Claims made after that window cannot be accepted.
              </p>
              <p>
                To make a claim,{' '}
                <a href="/contact" className="text-brand-700 underline">
                  contact us
                </a>{' '}
                with the tracking number, photos and proof of the contents’ value. We answer every
                claim within 10 business days.
              </p>
            </>
          ),
        },
        {
          heading: 'Website and tracking',
          body: (
            <p>
              Tracking information is provided as recorded by our staff and partners and may lag
              behind the parcel’s actual position. You may not use automated tools to query tracking
              numbers in bulk or interfere with the website.
            </p>
          ),
        },
        {
          heading: 'Changes and governing law',
          body: (
            <p>
              We may update these terms; the version in force when you book applies to that
              shipment. These terms are governed by the laws of the State of New York, and disputes
              are decided by its courts, unless the law of your country gives you the right to bring
              a claim at home. Questions: {company.email} or {company.phone}.
            </p>
          ),
        },
      ]}
    />
  );
}
