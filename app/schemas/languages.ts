import { remembered } from '~/utils/remembered';

/**
 * The languages the public site and the customers' e-mails are written in: one line each. A
 * language is this line and its folder of messages, app/locales/<code>/ (public.json for the
 * site's frame and the tracking page, pages.json for the marketing pages, emails.json for the
 * e-mails, templates.json for the e-mail templates as shipped), which the suite holds to
 * English's keys and placeholders. The staff dashboard and the API's error messages stay
 * English. Safe in the browser (no zod).
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((language) => language.code);

/** The language every message is written in first, and the one the dashboard speaks. */
export const SOURCE_LANGUAGE: Language = 'en';

/** "fr-CA" → "fr-CA", "EN-us" → "en-US"; null for what is not a BCP 47 language tag. */
export function canonicalLanguageTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null;
  } catch {
    return null;
  }
}

/** The language we write for a BCP 47 tag ("fr-CA" → "fr"), or null when we do not write it. */
export function supportedLanguage(tag: string | null | undefined): Language | null {
  return tag ? languageOfTag(tag) : null;
}

// Every page asks for its visitor's languages: each tag is read by Intl once.
const languageOfTag = remembered(
  (tag: string): Language | null => {
    const canonical = canonicalLanguageTag(tag);
    if (!canonical) return null;
    const base = new Intl.Locale(canonical).language;
    return LANGUAGE_CODES.find((code) => code === base) ?? null;
  },
  (tag) => tag,
);

export function languageDirection(language: Language): 'ltr' | 'rtl' {
  return LANGUAGES.find((entry) => entry.code === language)?.dir ?? 'ltr';
}
