import type { ReactNode } from 'react';
import { usePageText } from './page-text';

/** The banner at the top of an inner public page, holding its one h1. */
export function PageHero({
  eyebrow,
  title,
  children,
}: {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-brand-600 text-white">
      <div className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
        {eyebrow ? (
          <p className="text-sm font-semibold uppercase tracking-wider text-accent-200">
            {eyebrow}
          </p>
        ) : null}
        <h1 className="mt-2 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
          {title}
        </h1>
        {children ? <div className="mt-4 max-w-2xl text-lg text-blue-100">{children}</div> : null}
      </div>
    </section>
  );
}

/**
 * The words over a section: the messages `<texts>.eyebrow` and `<texts>.title`, and
 * `<texts>.intro` under them when `intro` is set, or the `eyebrow` and `title` given and
 * `children` under them.
 */
export type HeadingWords =
  | { texts: string; eyebrow?: never; title?: never }
  | { texts?: never; eyebrow: string; title: string };

export function SectionHeading({
  id,
  align = 'center',
  intro: introMessage = false,
  children,
  ...words
}: HeadingWords & {
  id?: string;
  intro?: boolean;
  children?: ReactNode;
  align?: 'center' | 'left';
}) {
  const { t } = usePageText();
  const { texts } = words;
  const eyebrow = texts ? t(`${texts}.eyebrow`) : words.eyebrow;
  const intro = texts && introMessage ? t(`${texts}.intro`) : children;
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow ? (
        <p className="text-sm font-semibold uppercase tracking-wider text-accent-700">{eyebrow}</p>
      ) : null}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-gray-900">
        {texts ? t(`${texts}.title`) : words.title}
      </h2>
      {intro ? <p className="mt-3 text-gray-600">{intro}</p> : null}
    </div>
  );
}

/**
 * A section of a public page under its `SectionHeading`: on the page's own colour, or across the
 * page in a `band` of colour, its content `width` wide.
 */
export function PublicSection({
  headingId,
  intro,
  band,
  width = 'max-w-7xl',
  padding = 'py-20',
  children,
  ...words
}: HeadingWords & {
  headingId: string;
  /** With `texts`, true for the message `<texts>.intro`; otherwise the words under the heading. */
  intro?: ReactNode;
  band?: 'bg-white' | 'bg-brand-50';
  width?: 'max-w-3xl' | 'max-w-4xl' | 'max-w-7xl';
  padding?: 'py-16' | 'py-20';
  children: ReactNode;
}) {
  const content = (
    <>
      {words.texts ? (
        <SectionHeading id={headingId} texts={words.texts} intro={intro === true} />
      ) : (
        <SectionHeading id={headingId} eyebrow={words.eyebrow!} title={words.title!}>
          {intro}
        </SectionHeading>
      )}
      {children}
    </>
  );
  return band ? (
    <section aria-labelledby={headingId} className={`${band} ${padding}`}>
      <div className={`mx-auto ${width} px-4`}>{content}</div>
    </section>
  ) : (
    <section aria-labelledby={headingId} className={`mx-auto ${width} px-4 ${padding}`}>
      {content}
    </section>
  );
}
