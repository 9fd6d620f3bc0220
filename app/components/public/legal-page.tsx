import type { ReactNode } from 'react';

export const LEGAL_LAST_UPDATED = 'December 15, 2024';

export type LegalSection = { heading: string; body: ReactNode };

/** A legal document: one h1, the update date, a table of contents and numbered sections. */
export function LegalPage({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/(^-|-$)/g, '');
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-extrabold tracking-tight text-gray-900">{title}</h1>
      <p className="mt-2 text-sm text-gray-500">Last updated: {LEGAL_LAST_UPDATED}</p>
      <div className="mt-8 space-y-4 text-gray-700">{intro}</div>
      <nav aria-label="Contents" className="card mt-8 p-6">
        <h2 className="font-semibold text-gray-900">Contents</h2>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm">
          {sections.map((section) => (
            <li key={section.heading}>
              <a href={`#${slug(section.heading)}`} className="text-brand-700 hover:underline">
                {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.heading} aria-labelledby={slug(section.heading)} className="mt-10">
          <h2 id={slug(section.heading)} className="scroll-mt-4 text-2xl font-bold text-gray-900">
            {index + 1}. {section.heading}
          </h2>
          <div className="mt-3 space-y-3 text-gray-700 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
            {section.body}
          </div>
        </section>
      ))}
    </article>
  );
}
