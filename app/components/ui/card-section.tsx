import type { ReactNode } from 'react';

/**
 * A card of a dashboard page, named by its heading: the heading, a line about it if any, then
 * what it holds, or the `empty` sentence when there is nothing to list.
 */
export function CardSection({
  headingId,
  title,
  description,
  empty,
  headingClassName = '',
  className = 'card p-4',
  children,
}: {
  headingId: string;
  title: ReactNode;
  description?: ReactNode;
  empty?: string | false;
  headingClassName?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2
        id={headingId}
        className={`${description ? '' : 'mb-3 '}text-lg font-semibold ${headingClassName}`.trim()}
      >
        {title}
      </h2>
      {description ? <p className="mb-3 text-sm text-gray-600">{description}</p> : null}
      {empty ? <p className="py-6 text-center text-sm text-gray-600">{empty}</p> : children}
    </section>
  );
}

/**
 * A card that lists records: its `items`, one `<li>` each (keyed by `id`), drawn by `children`,
 * or the `empty` sentence when there are none.
 */
export function ListCard<Item extends { id: string }>({
  headingId,
  title,
  empty,
  items,
  listLabel,
  listClassName,
  itemClassName,
  children,
}: {
  headingId: string;
  title: ReactNode;
  empty: string;
  items: Item[];
  /** The list's own name, where the heading's is not enough. */
  listLabel?: string;
  listClassName: string;
  itemClassName?: string;
  children: (item: Item) => ReactNode;
}) {
  return (
    <CardSection headingId={headingId} title={title} empty={items.length ? false : empty}>
      <ul aria-label={listLabel} className={listClassName}>
        {items.map((item) => (
          <li key={item.id} className={itemClassName}>
            {children(item)}
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
