import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';

export const meta = publicPageMeta('pages:privacy.title', 'pages:privacy.description');

const COLLECTED = ['shipment', 'delivery', 'messages', 'newsletter', 'technical'] as const;
const USES = ['deliver', 'updates', 'customs', 'answer', 'newsletter'] as const;

export default function PrivacyPolicyPage() {
  const { t, rich, href } = usePageText();
  const text = (key: string) => <p>{t(`privacy.${key}.text`)}</p>;
  return (
    <LegalPage
      page="privacy"
      intro={<p>{t('privacy.intro')}</p>}
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
        { key: 'bases', anchor: 'legal-bases', body: text('bases') },
        { key: 'sharing', anchor: 'sharing', body: text('sharing') },
        { key: 'retention', anchor: 'retention', body: text('retention') },
        { key: 'transfers', anchor: 'international-transfers', body: text('transfers') },
        { key: 'rights', anchor: 'your-rights', body: text('rights') },
        {
          key: 'security',
          anchor: 'security-and-cookies',
          body: (
            <p>
              {rich('privacy.security.text', [
                <a
                  key="cookies"
                  href={href('/cookie-policy')}
                  className="text-brand-700 underline"
                />,
              ])}
            </p>
          ),
        },
        { key: 'contact', anchor: 'contact', body: text('contact') },
      ]}
    />
  );
}
