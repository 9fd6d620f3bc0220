import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';

export const meta = publicPageMeta('pages:privacy.title', 'pages:privacy.description');

const COLLECTED = ['shipment', 'delivery', 'messages', 'newsletter', 'technical'] as const;
const USES = ['deliver', 'updates', 'customs', 'answer', 'newsletter'] as const;

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      page="privacy"
      sections={[
        { key: 'collect', anchor: 'information-we-collect', texts: [COLLECTED] },
        { key: 'use', anchor: 'how-we-use-it', texts: [USES] },
        { key: 'bases', anchor: 'legal-bases' },
        { key: 'sharing', anchor: 'sharing' },
        { key: 'retention', anchor: 'retention' },
        { key: 'transfers', anchor: 'international-transfers' },
        { key: 'rights', anchor: 'your-rights' },
        {
          key: 'security',
          anchor: 'security-and-cookies',
          link: { key: 'cookies', to: '/cookie-policy' },
        },
        { key: 'contact', anchor: 'contact' },
      ]}
    />
  );
}
