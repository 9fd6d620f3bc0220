import type { ReactNode } from 'react';

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

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  align = 'center',
}: {
  id?: string;
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  align?: 'center' | 'left';
}) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow ? (
        <p className="text-sm font-semibold uppercase tracking-wider text-accent-700">{eyebrow}</p>
      ) : null}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-gray-900">
        {title}
      </h2>
      {children ? <p className="mt-3 text-gray-600">{children}</p> : null}
    </div>
  );
}
