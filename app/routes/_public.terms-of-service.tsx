import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';

export const meta = publicPageMeta('pages:terms.title', 'pages:terms.description');

export default function TermsOfServicePage() {
  const { t, rich, href } = usePageText();
  const text = (key: string) => <p>{t(`terms.${key}.text`)}</p>;
  return (
    <LegalPage
      page="terms"
      intro={<p>{t('terms.intro')}</p>}
      sections={[
        { key: 'services', anchor: 'our-services', body: text('services') },
        {
          key: 'booking',
          anchor: 'booking-and-your-responsibilities',
          body: (
            <>
              <p>{t('terms.booking.confirm')}</p>
              <ul>
                <li>{t('terms.booking.accurate')}</li>
                <li>{t('terms.booking.packed')}</li>
                <li>{t('terms.booking.prohibited')}</li>
              </ul>
              <p>{t('terms.booking.hold')}</p>
            </>
          ),
        },
        {
          key: 'fees',
          anchor: 'fees-and-payment',
          body: (
            <>
              <p>{t('terms.fees.advance')}</p>
              <p>{t('terms.fees.difference')}</p>
            </>
          ),
        },
        { key: 'times', anchor: 'delivery-times', body: text('times') },
        { key: 'delivery', anchor: 'delivery-and-failed-delivery', body: text('delivery') },
        { key: 'liability', anchor: 'liability-and-insurance', body: text('liability') },
        {
          key: 'claims',
          anchor: 'claims',
          body: (
            <>
              <p>{t('terms.claims.window')}</p>
              <p>
                {rich('terms.claims.how', [
                  <a key="contact" href={href('/contact')} className="text-brand-700 underline" />,
                ])}
              </p>
            </>
          ),
        },
        { key: 'website', anchor: 'website-and-tracking', body: text('website') },
        { key: 'law', anchor: 'changes-and-governing-law', body: text('law') },
      ]}
    />
  );
}
