import { LegalPage } from '~/components/public/legal-page';
import { publicPageMeta } from '~/components/public/page-meta';
import { DataTable, FLUSH, type Column } from '~/components/ui/data-table';
import { useCompany } from '~/utils/use-company';

export const meta = publicPageMeta(
  'Cookie Policy',
  'The few cookies our website uses, what each one does and how to control them.',
);

const COOKIES = [
  {
    name: '__session',
    purpose: 'Keeps staff signed in to the management dashboard.',
    duration: 'Up to 12 hours',
  },
  {
    name: '__flash',
    purpose: 'Carries a one-time confirmation message, such as “Message sent”, to the next page.',
    duration: 'Until that page is shown',
  },
];

const COOKIE_COLUMNS: Column<(typeof COOKIES)[number]>[] = [
  { header: 'Cookie', cellClassName: 'font-mono', cell: (cookie) => cookie.name },
  { header: 'Purpose', cell: (cookie) => cookie.purpose },
  { header: 'Duration', cell: (cookie) => cookie.duration },
];

export default function CookiePolicyPage() {
  const company = useCompany();
  return (
    <LegalPage
      title="Cookie Policy"
      intro={
        <p>
          This policy explains how {company.name} uses cookies and similar technologies on its
          website. We keep their use to the minimum needed for the site to work.
        </p>
      }
      sections={[
        {
          heading: 'What cookies are',
          body: (
            <p>
              Cookies are small text files a website stores in your browser. They let the site
              remember something between one page and the next, such as being signed in.
            </p>
          ),
        },
        {
          heading: 'Cookies we use',
          body: (
            <>
              <p>We only use strictly necessary cookies, set by us:</p>
              <DataTable
                look={FLUSH}
                columns={COOKIE_COLUMNS}
                rows={COOKIES}
                rowKey={(cookie) => cookie.name}
              />
            </>
          ),
        },
        {
          heading: 'No advertising or tracking cookies',
          body: (
            <p>
              We do not use advertising cookies, cross-site tracking or third-party analytics.
              Tracking a parcel by its number does not require any cookie at all.
            </p>
          ),
        },
        {
          heading: 'Managing cookies',
          body: (
            <p>
              You can block or delete cookies in your browser settings. The public website,
              including parcel tracking, keeps working without cookies; only confirmation messages
              after a form and the staff dashboard need them.
            </p>
          ),
        },
        {
          heading: 'Changes and contact',
          body: (
            <p>
              If we ever add a cookie that is not strictly necessary, we will update this page and
              ask for your consent first. Questions: {company.email}. See also our{' '}
              <a href="/privacy-policy" className="text-brand-700 underline">
                Privacy Policy
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
