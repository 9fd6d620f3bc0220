import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DIALOG_FRAGMENT } from '~/components/ui/route-dialog';
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
