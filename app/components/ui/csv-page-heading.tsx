import { Link } from '@remix-run/react';

/** A CSV page's heading with its template to download and the way back (imports, bulk booking). */
export function CsvPageHeading({
  title,
  templateHref,
  back,
}: {
  title: string;
  templateHref: string;
  back: { to: string; label: string };
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
      <div className="flex gap-2">
        <a href={templateHref} className="btn-secondary" download>
          Download template
        </a>
        <Link to={back.to} className="btn-secondary">
          {back.label}
        </Link>
      </div>
    </div>
  );
}
