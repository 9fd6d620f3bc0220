import type { MetaDescriptor } from '@remix-run/node';

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

export function publicPageMeta(
  matches: Matches,
  title: string | null,
  description: string,
  { index = true }: { index?: boolean } = {},
): MetaDescriptor[] {
  return [
    { title: pageTitle(matches, title) },
    { name: 'description', content: description },
    ...(index ? [] : [{ name: 'robots', content: 'noindex' }]),
  ];
}
