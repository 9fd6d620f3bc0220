import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

/**
 * Countries as people type them on an address: a name ("Germany") or a two- or three-letter ISO
 * code ("DE", "USA"), read by i18n-iso-countries. Shared by the address formatter and the
 * address's time zone.
 */
// Loaded through require: the server build leaves the package external, and Node's ESM loader
// takes a JSON file only with an import attribute that the build does not write.
// The package is CommonJS: Node's ESM loader gives its default export only.
countries.registerLocale(
  createRequire(import.meta.url)('i18n-iso-countries/langs/en.json') as countries.LocaleData,
);

/** The ISO 3166-1 alpha-2 code of a country typed as a name or a code; undefined if unknown. */
export function countryCode(country: string | undefined | null): string | undefined {
  const value = country?.trim() ?? '';
  if (!value) return undefined;
  const upper = value.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && countries.isValid(upper)) return upper;
  if (/^[A-Z]{3}$/.test(upper)) {
    const code = countries.alpha3ToAlpha2(upper);
    if (code) return code;
  }
  return countries.getAlpha2Code(value, 'en') ?? undefined;
}
