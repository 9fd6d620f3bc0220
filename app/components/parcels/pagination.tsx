import { Link, useLocation } from '@remix-run/react';

/** Page numbers to show: the first, the last and two either side of the current one. */
export function pageWindow(current: number, total: number): Array<number | 'gap'> {
  const pages = new Set([1, total]);
  for (let p = current - 2; p <= current + 2; p++) if (p >= 1 && p <= total) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: Array<number | 'gap'> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push('gap');
    out.push(p);
  });
  return out;
}

/** Page links of a list at `basePath` that keep the page's other query parameters (search, status). */
export function Pagination({
  pagination: { currentPage, totalPages },
  basePath,
}: {
  pagination: { currentPage: number; totalPages: number };
  basePath: string;
}) {
  const { search } = useLocation();
  if (totalPages <= 1) return null;
  const href = (page: number) => {
    const params = new URLSearchParams(search);
    if (page === 1) params.delete('page');
    else params.set('page', String(page));
    const query = params.toString();
    return `${basePath}${query ? `?${query}` : ''}`;
  };
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-1">
      {currentPage > 1 ? (
        <Link to={href(currentPage - 1)} className="btn-secondary" rel="prev">
          Previous
        </Link>
      ) : (
        <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
          Previous
        </span>
      )}
      {pageWindow(currentPage, totalPages).map((p, i) =>
        p === 'gap' ? (
          <span key={`gap-${i}`} className="px-2 text-gray-500" aria-hidden="true">
            …
          </span>
        ) : (
          <Link
            key={p}
            to={href(p)}
            aria-label={`Page ${p}`}
            aria-current={p === currentPage ? 'page' : undefined}
            className={p === currentPage ? 'btn-primary' : 'btn-secondary'}
          >
            {p}
          </Link>
        ),
      )}
      {currentPage < totalPages ? (
        <Link to={href(currentPage + 1)} className="btn-secondary" rel="next">
          Next
        </Link>
      ) : (
        <span className="btn-secondary pointer-events-none opacity-50" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
