import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';

export const meta = publicPageMeta('pages:privacy.title', 'pages:privacy.description');

const COLLECTED = ['shipment', 'delivery', 'messages', 'newsletter', 'technical'] as const;
const USES = ['deliver', 'updates', 'customs', 'answer', 'newsletter'] as const;

export default function PrivacyPolicyPage() {
  const { t, rich } = usePageText();
  return (
    <LegalPage
      page="privacy"
      sections={[
        {
          key: 'collect',
          anchor: 'information-we-collect',
          body: (
            <ul>
              {COLLECTED.map((item) => (
                <li key={item}>{rich(`privacy.collect.${item}`, [<strong key="label" />])}</li>
              ))}
            </ul>
          ),
        },
        {
          key: 'use',
          anchor: 'how-we-use-it',
          body: (
            <ul>
              {USES.map((item) => (
                <li key={item}>{t(`privacy.use.${item}`)}</li>
              ))}
            </ul>
          ),
        },
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
