import type { MetaFunction } from '@remix-run/node';
import { pageFigures } from '~/utils/page-figures';
import { metaText, pageLanguage } from '~/utils/page-language';

type Matches = Array<{ id: string; data?: unknown } | undefined>;

/** The company name from the root loader, for page titles. */
export function companyNameFrom(matches: Matches): string {
  const root = matches.find((match) => match?.id === 'root')?.data as
    { company?: { name?: string } } | undefined;
  return root?.company?.name ?? 'SwiftShip Courier';
}

/** "<Page> · <company name>", the way every page of the site is titled. */
export function pageTitle(matches: Matches, title: string | null): string {
  const company = companyNameFrom(matches);
  return title ? `${title} · ${company}` : company;
}

/**
 * A public page's meta function: its title, its description (their messages' keys in the public
 * pages' messages, or in the marketing pages' as `pages:<key>`, with the figures they quote) and
 * whether search engines list it.
 */
export function publicPageMeta(
  title: string | null,
  description: string,
  { index = true }: { index?: boolean } = {},
): MetaFunction {
  return ({ matches }) => {
    const figures = pageFigures(pageLanguage(matches));
    return [
      { title: pageTitle(matches, title ? metaText(title, figures) : null) },
      { name: 'description', content: metaText(description, figures) },
      ...(index ? [] : [{ name: 'robots', content: 'noindex' }]),
    ];
  };
}
