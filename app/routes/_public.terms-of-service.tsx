import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';

export const meta = publicPageMeta('pages:terms.title', 'pages:terms.description');

export default function TermsOfServicePage() {
  return (
    <LegalPage
      page="terms"
      sections={[
        { key: 'services', anchor: 'our-services' },
        {
          key: 'booking',
          anchor: 'booking-and-your-responsibilities',
          texts: ['confirm', ['accurate', 'packed', 'prohibited'], 'hold'],
        },
        { key: 'fees', anchor: 'fees-and-payment', texts: ['advance', 'difference'] },
        { key: 'times', anchor: 'delivery-times' },
        { key: 'delivery', anchor: 'delivery-and-failed-delivery' },
        { key: 'liability', anchor: 'liability-and-insurance' },
        {
          key: 'claims',
          anchor: 'claims',
          texts: ['window', 'how'],
          link: { key: 'contact', to: '/contact' },
        },
        { key: 'website', anchor: 'website-and-tracking' },
        { key: 'law', anchor: 'changes-and-governing-law' },
      ]}
    />
  );
}
