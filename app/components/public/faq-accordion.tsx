import type { ReactNode } from 'react';
import { PublicSection } from './page-hero';
import { usePageText } from './page-text';

export type FaqItem = { question: string; answer: string };

/**
 * An accordion of `<details>`: it works without JavaScript, and the shared `name` makes browsers
 * that support exclusive accordions keep one answer open at a time (older ones let several open).
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
  return (
    <div
      className="divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white shadow-sm"
      data-faq={group}
    >
      {items.map((item, index) => (
        <details key={item.question} name={group} open={index === defaultOpen} className="group">
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

/**
 * A page's questions, under the site's FAQ heading: the messages `<texts>.<key>.question` and
 * `<texts>.<key>.answer` of each key, in an accordion named `group` (its heading `<group>-heading`).
 */
export function FaqSection({
  group,
  texts,
  keys,
  intro,
  band,
  padding,
}: {
  group: string;
  texts: string;
  keys: readonly string[];
  intro?: ReactNode;
  band?: 'bg-white';
  padding?: 'py-16';
}) {
  const { t } = usePageText();
  return (
    <PublicSection
      headingId={`${group}-heading`}
      eyebrow={t('common.faq')}
      title={t('common.faqTitle')}
      band={band}
      width="max-w-3xl"
      padding={padding}
      intro={intro}
    >
      <div className="mt-10">
        <FaqAccordion
          items={keys.map((key) => ({
            question: t(`${texts}.${key}.question`),
            answer: t(`${texts}.${key}.answer`),
          }))}
          group={group}
        />
      </div>
    </PublicSection>
  );
}
