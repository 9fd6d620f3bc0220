import { useRef, type SyntheticEvent } from 'react';

export type FaqItem = { question: string; answer: string };

/**
 * An accordion where one answer is open at a time. `<details name>` makes the group exclusive in
 * browsers without JavaScript; the toggle handler does the same for browsers that ignore `name`.
 */
export function FaqAccordion({
  items,
  group,
  defaultOpen = 0,
}: {
  items: FaqItem[];
  group: string;
  defaultOpen?: number | null;
}) {
  const listRef = useRef<HTMLDivElement>(null);

  function closeOthers(event: SyntheticEvent<HTMLDetailsElement>) {
    const opened = event.currentTarget;
    if (!opened.open) return;
    listRef.current?.querySelectorAll<HTMLDetailsElement>('details[open]').forEach((details) => {
      if (details !== opened) details.open = false;
    });
  }

  return (
    <div
      ref={listRef}
      className="divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white shadow-sm"
      data-faq={group}
    >
      {items.map((item, index) => (
        <details
          key={item.question}
          name={group}
          open={index === defaultOpen}
          onToggle={closeOthers}
          className="group"
        >
          <summary className="flex list-none items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-gray-900 hover:bg-gray-50 [&::-webkit-details-marker]:hidden">
            <span>{item.question}</span>
            <span
              aria-hidden="true"
              className="text-xl leading-none text-brand-600 transition-transform group-open:rotate-45"
            >
              +
            </span>
          </summary>
          <div className="px-5 pb-5 text-gray-600">{item.answer}</div>
        </details>
      ))}
    </div>
  );
}
