import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';
import { DataTable, FLUSH, type Column } from '~/components/ui/data-table';

export const meta = publicPageMeta('pages:cookies.title', 'pages:cookies.description');

type CookieRow = { name: string; purpose: string; duration: string };

export default function CookiePolicyPage() {
  const { t, rich, href } = usePageText();
  const text = (key: string) => <p>{t(`cookies.${key}.text`)}</p>;
  const cookies: CookieRow[] = [
    {
      name: '__session',
      purpose: t('cookies.used.sessionPurpose'),
      duration: t('cookies.used.sessionDuration'),
    },
    {
      name: '__flash',
      purpose: t('cookies.used.flashPurpose'),
      duration: t('cookies.used.flashDuration'),
    },
    {
      name: 'lang',
      purpose: t('cookies.used.languagePurpose'),
      duration: t('cookies.used.languageDuration'),
    },
    {
      name: '__recipient',
      purpose: t('cookies.used.recipientPurpose'),
      duration: t('cookies.used.recipientDuration'),
    },
  ];
  const columns: Column<CookieRow>[] = [
    { header: t('cookies.used.cookie'), cellClassName: 'font-mono', cell: (cookie) => cookie.name },
    { header: t('cookies.used.purpose'), cell: (cookie) => cookie.purpose },
    { header: t('cookies.used.duration'), cell: (cookie) => cookie.duration },
  ];
  return (
    <LegalPage
      page="cookies"
      intro={<p>{t('cookies.intro')}</p>}
      sections={[
        { key: 'what', anchor: 'what-cookies-are', body: text('what') },
        {
          key: 'used',
          anchor: 'cookies-we-use',
          body: (
            <>
              <p>{t('cookies.used.text')}</p>
              <DataTable
                look={FLUSH}
                columns={columns}
                rows={cookies}
                rowKey={(cookie) => cookie.name}
              />
            </>
          ),
        },
        {
          key: 'noTracking',
          anchor: 'no-advertising-or-tracking-cookies',
          body: text('noTracking'),
        },
        { key: 'managing', anchor: 'managing-cookies', body: text('managing') },
        {
          key: 'changes',
          anchor: 'changes-and-contact',
          body: (
            <p>
              {rich('cookies.changes.text', [
                <a
                  key="privacy"
                  href={href('/privacy-policy')}
                  className="text-brand-700 underline"
                />,
              ])}
            </p>
          ),
        },
      ]}
    />
  );
}
