import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';
import { DataTable, FLUSH, type Column } from '~/components/ui/data-table';

export const meta = publicPageMeta('pages:cookies.title', 'pages:cookies.description');

type CookieRow = { name: string; purpose: string; duration: string };

/** The cookies the site sets: each one's name, purpose and how long it is kept. */
function CookiesWeUse() {
  const { t } = usePageText();
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
    <>
      <p>{t('cookies.used.text')}</p>
      <DataTable look={FLUSH} columns={columns} rows={cookies} rowKey={(cookie) => cookie.name} />
    </>
  );
}

export default function CookiePolicyPage() {
  return (
    <LegalPage
      page="cookies"
      sections={[
        { key: 'what', anchor: 'what-cookies-are' },
        { key: 'used', anchor: 'cookies-we-use', body: <CookiesWeUse /> },
        { key: 'noTracking', anchor: 'no-advertising-or-tracking-cookies' },
        { key: 'managing', anchor: 'managing-cookies' },
        {
          key: 'changes',
          anchor: 'changes-and-contact',
          link: { key: 'privacy', to: '/privacy-policy' },
        },
      ]}
    />
  );
}
