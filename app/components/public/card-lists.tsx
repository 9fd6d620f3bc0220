import type { ReactNode } from 'react';

const FIGURE_LOOKS = {
  cards: {
    list: 'grid grid-cols-2 gap-3 sm:gap-6',
    item: 'card flex min-w-0 flex-col-reverse p-4 text-center sm:p-6',
    label: 'mt-1 text-sm text-gray-600',
    value: 'text-xl font-extrabold text-brand-700 min-[360px]:text-2xl sm:text-3xl',
  },
  band: {
    list: 'mt-16 grid grid-cols-2 gap-x-3 gap-y-6 rounded-2xl bg-brand-800 px-4 py-6 text-center text-white sm:gap-6 sm:p-8 lg:grid-cols-4',
    item: 'flex min-w-0 flex-col-reverse',
    label: 'mt-1 text-sm text-blue-100',
    value: 'text-xl font-extrabold min-[360px]:text-2xl sm:text-3xl',
  },
};

/**
 * A few figures, each above its label (the label stays first for a screen reader): as cards, or
 * in a band of the brand's colour.
 */
export function Figures({
  figures,
  look = 'cards',
  className = '',
}: {
  figures: ReadonlyArray<{ value: string; label: string }>;
  look?: keyof typeof FIGURE_LOOKS;
  className?: string;
}) {
  const classes = FIGURE_LOOKS[look];
  return (
    <dl className={`${classes.list} ${className}`.trim()}>
      {figures.map((figure) => (
        <div key={figure.label} className={classes.item}>
          <dt className={classes.label}>{figure.label}</dt>
          <dd className={classes.value}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Points in a grid, each a short title, a line of detail if any and a sentence; as cards, or plain
 * on a card's colour.
 */
export function TitledPoints({
  points,
  cards = true,
  className = 'mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4',
}: {
  points: ReadonlyArray<{ title: string; detail?: ReactNode; text: string }>;
  cards?: boolean;
  className?: string;
}) {
  return (
    <ul className={className}>
      {points.map((point) => (
        <li key={point.title} className={cards ? 'card p-6' : undefined}>
          <h3 className={`${cards ? 'text-lg ' : ''}font-semibold text-gray-900`}>{point.title}</h3>
          {point.detail ? <p className="mt-2">{point.detail}</p> : null}
          <p className="mt-2 text-sm text-gray-600">{point.text}</p>
        </li>
      ))}
    </ul>
  );
}

/** What a service or a plan includes, each line ticked. */
export function CheckList({ items, className }: { items: readonly string[]; className: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item}>
          <span aria-hidden="true" className="text-green-600">
            ✓{' '}
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
