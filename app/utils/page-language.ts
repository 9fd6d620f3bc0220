import { LANGUAGES, SOURCE_LANGUAGE, supportedLanguage, type Language } from '~/schemas/languages';

/**
 * Which language a page is in, read from its routes' loader data: the deepest route that says
 * (a tracking result, for its recipient), else the root's (the request's), and the URLs of its
 * other languages. Safe in the browser.
 */

type MatchData = { data?: unknown } | undefined;

export function pageLanguage(matches: MatchData[]): Language {
  for (const match of [...matches].reverse()) {
    const language = (match?.data as { language?: unknown } | null | undefined)?.language;
    if (typeof language === 'string') return supportedLanguage(language) ?? SOURCE_LANGUAGE;
  }
  return SOURCE_LANGUAGE;
}

/**
 * A page's own URL in `language`: its path and query with `lang` set (none for `fallback`, the
 * language of the URL without one, so that URL stays the canonical one).
 */
export function languageUrl(
  origin: string,
  pathname: string,
  search: string,
  language: Language | null,
): string {
  const query = new URLSearchParams(search);
  query.delete('lang');
  if (language) query.set('lang', language);
  const rest = query.toString();
  return `${origin}${pathname}${rest ? `?${rest}` : ''}`;
}

/** The `hreflang` alternates of a page: each language's URL, and the URL without one. */
export function languageAlternates(origin: string, pathname: string, search: string) {
  return [
    ...LANGUAGES.map(({ code }) => ({
      hrefLang: code,
      href: languageUrl(origin, pathname, search, code),
    })),
    { hrefLang: 'x-default', href: languageUrl(origin, pathname, search, null) },
  ];
}

/**
 * A link within the site that keeps the language the visitor chose in the URL (`?lang=`); a
 * language from the cookie or the browser needs nothing in the link.
 */
export function keepLanguage(href: string, search: string): string {
  const language = supportedLanguage(new URLSearchParams(search).get('lang'));
  if (!language) return href;
  const [path = '', hash] = href.split('#');
  const url = new URL(path, 'http://site');
  url.searchParams.set('lang', language);
  return `${url.pathname}${url.search}${hash === undefined ? '' : `#${hash}`}`;
}

type Translate = (key: string, values?: Record<string, string | number>) => string;
let current: Translate | null = null;

/**
 * Route `meta` functions run while the page renders, outside React's hooks: the page's messages
 * are lent to them for that one synchronous render (entry.server.tsx).
 */
export function renderingWith<T>(translate: Translate, render: () => T): T {
  current = translate;
  try {
    return render();
  } finally {
    current = null;
  }
}

const MESSAGE_KEY = /^(\w+:)?[a-zA-Z]\w*(\.[\w ]+)+$/;

/**
 * A message of the public pages for a route's `meta`, in the page's language; a text that is
 * not a message's key ("section.name", or "pages:section.name" for the marketing pages') is its
 * own words.
 */
export function metaText(key: string, values?: Record<string, string | number>): string {
  return current && MESSAGE_KEY.test(key) ? current(key, values) : key;
}
