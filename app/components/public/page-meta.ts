import type { MetaDescriptor } from '@remix-run/node';

type Matches = Array<{ id: string; data?: unknown } | undefined>;

/** The company name from the root loader, for page titles. */
export function companyNameFrom(matches: Matches): string {
  const root = matches.find((match) => match?.id === 'root')?.data as
    { company?: { name?: string } } | undefined;
  return root?.company?.name ?? 'SwiftShip Courier';
}

export function publicPageMeta(
  matches: Matches,
  title: string | null,
  description: string,
): MetaDescriptor[] {
  const company = companyNameFrom(matches);
  return [
    { title: title ? `${title} | ${company}` : company },
    { name: 'description', content: description },
  ];
}
