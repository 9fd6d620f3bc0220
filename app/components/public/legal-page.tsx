import type { ReactNode } from 'react';
import { usePageText } from './page-text';

/** When the legal pages last changed, written in each page's language. */
export const LEGAL_LAST_UPDATED = '2024-12-15';

/**
 * A section of a legal document: its anchor (the same in every language) and its body; its
 * heading is the message `<page>.<key>.heading`. Without a body, the section is a paragraph per
 * message `<page>.<key>.<text>` of `texts` (`text` alone unless given), whose `<0>…</0>` is a link
 * to `link.to` when a link is given; an entry of `texts` that is a list of names is a bulleted
 * list of those messages, whose `<0>…</0>` is in bold.
 */
export type LegalSection = {
  key: string;
  anchor: string;
  body?: ReactNode;
  texts?: (string | readonly string[])[];
  link?: { key: string; to: string };
};

/**
 * A legal document: one h1, the update date, its introduction (the message `<page>.intro`), a
 * table of contents and numbered sections.
 */
export function LegalPage({
  page,
  sections,
}: {
  /** The page's messages (`privacy`, `terms`, `cookies`): its title and its sections' headings. */
  page: string;
  sections: LegalSection[];
}) {
  const { t, rich, href, language } = usePageText();
  const updated = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${LEGAL_LAST_UPDATED}T12:00:00Z`),
  );
  const heading = (section: LegalSection) => t(`${page}.${section.key}.heading`);
  const body = ({ key, body, texts = ['text'], link }: LegalSection) =>
    body ??
    texts.map((text) => {
      if (typeof text !== 'string') {
        return (
          <ul key={text.join()}>
            {text.map((item) => (
              <li key={item}>{rich(`${page}.${key}.${item}`, [<strong key="label" />])}</li>
            ))}
          </ul>
        );
      }
      const message = `${page}.${key}.${text}`;
      return (
        <p key={text}>
          {link
            ? rich(message, [
                <a key={link.key} href={href(link.to)} className="text-brand-700 underline" />,
              ])
            : t(message)}
        </p>
      );
    });
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-extrabold tracking-tight text-gray-900">{t(`${page}.title`)}</h1>
      <p className="mt-2 text-sm text-gray-500">{t('legal.lastUpdated', { date: updated })}</p>
      <div className="mt-8 space-y-4 text-gray-700">
        <p>{t(`${page}.intro`)}</p>
      </div>
      <nav aria-label={t('legal.contents')} className="card mt-8 p-6">
        <h2 className="font-semibold text-gray-900">{t('legal.contents')}</h2>
        <ol className="mt-3 list-decimal space-y-1 ps-5 text-sm">
          {sections.map((section) => (
            <li key={section.key}>
              <a href={`#${section.anchor}`} className="text-brand-700 hover:underline">
                {heading(section)}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.key} aria-labelledby={section.anchor} className="mt-10">
          <h2 id={section.anchor} className="scroll-mt-4 text-2xl font-bold text-gray-900">
            {index + 1}. {heading(section)}
          </h2>
          <div className="mt-3 space-y-3 text-gray-700 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:ps-6">
            {body(section)}
          </div>
        </section>
      ))}
    </article>
  );
}
