import type { SubmissionResult } from '@conform-to/react';
import { Link, Outlet } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import { listPageUrl } from '~/utils/list-page';
import { useCanEdit } from '~/utils/use-dashboard-user';

/**
 * The top of a dashboard tab that lists records (Notifications, Receipts): its title and, for
 * those who may change things, the link that opens the new-record dialog over the list.
 */
export function RecordListHeader({
  title,
  newPath,
  newLabel,
}: {
  title: string;
  newPath: string;
  newLabel: string;
}) {
  const canEdit = useCanEdit();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
      {canEdit ? (
        <Link to={`${newPath}${DIALOG_FRAGMENT}`} preventScrollReset className="btn-primary">
          {newLabel}
        </Link>
      ) : null}
    </div>
  );
}

/**
 * What an entry's buttons (Retry, Delete, Email…) need: the list's action they post to, and its
 * answer when it refused one of this entry's (shown on the entry, not on every one).
 */
export type EntryActions = {
  formAction: string;
  lastResult?: SubmissionResult<string[]> | null;
};

type Pagination = { totalItems: number; currentPage: number; totalPages: number };

/**
 * One page of a tab's records: the heading with how many there are, the items (or `empty`, or
 * `emptyPage` past the last of them) and the links to the pages before and after.
 */
export function RecordList({
  id,
  title,
  count,
  empty,
  emptyPage,
  pagesLabel,
  pagination,
  pageUrl,
  children,
}: {
  id: string;
  title: string;
  count: string;
  empty: string;
  emptyPage: string;
  pagesLabel: string;
  pagination: Pagination;
  pageUrl: (page: number) => string;
  children: ReactNode[];
}) {
  const { totalItems, currentPage, totalPages } = pagination;
  return (
    <section aria-labelledby={id} className="card p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="text-sm text-gray-600">{count}</p>
      </div>
      {children.length === 0 ? (
        <p className="py-8 text-center text-sm text-gray-600">
          {totalItems > 0 ? emptyPage : empty}
        </p>
      ) : (
        <ul aria-label={title} className="divide-y divide-gray-100">
          {children}
        </ul>
      )}
      {totalPages > 1 ? (
        <nav
          aria-label={pagesLabel}
          className="mt-4 flex items-center justify-between gap-2 border-t pt-4"
        >
          {currentPage > 1 ? (
            <Link to={pageUrl(currentPage - 1)} className="btn-secondary" rel="prev">
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-gray-600">
            Page {currentPage} of {totalPages}
          </span>
          {currentPage < totalPages ? (
            <Link to={pageUrl(currentPage + 1)} className="btn-secondary" rel="next">
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

/** What the tabs that list records say: their heading, new-record link, list and empty list. */
const TABS = {
  notification: {
    title: 'Email Notifications',
    newLabel: 'Send Notification',
    list: 'Recent Notifications',
    empty: 'No notifications sent yet.',
  },
  receipt: {
    title: 'Receipt Generation',
    newLabel: 'Generate Receipt',
    list: 'Generated Receipts',
    empty: 'No receipts generated yet. Generate your first receipt from a parcel.',
  },
};

/**
 * A dashboard tab that lists records (Notifications, Receipts) at `/dashboard/{noun}s`: its
 * header, the dialogs opened over it, one page of the records and, beside them, `aside`.
 */
export function RecordListTab({
  noun,
  pagination,
  columns,
  aside,
  children,
}: {
  noun: keyof typeof TABS;
  pagination: Pagination;
  columns: string;
  aside: ReactNode;
  children: ReactNode[];
}) {
  const tab = TABS[noun];
  const path = `/dashboard/${noun}s`;
  const { totalItems } = pagination;
  return (
    <div className="space-y-6">
      <RecordListHeader title={tab.title} newPath={`${path}/new`} newLabel={tab.newLabel} />

      <Outlet />

      <div className={`grid gap-6 ${columns}`}>
        <RecordList
          id={`${tab.list.toLowerCase().replace(/ /g, '-')}-heading`}
          title={tab.list}
          count={`${totalItems} ${noun}${totalItems === 1 ? '' : 's'}`}
          empty={tab.empty}
          emptyPage={`No ${noun}s on this page.`}
          pagesLabel={`${noun[0].toUpperCase()}${noun.slice(1)} pages`}
          pagination={pagination}
          pageUrl={listPageUrl(path)}
        >
          {children}
        </RecordList>
        {aside}
      </div>
    </div>
  );
}
