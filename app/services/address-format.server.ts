import { createRequire } from 'node:module';
import addressFormatter from '@fragaria/address-formatter';
import countries from 'i18n-iso-countries';

/**
 * Postal addresses as their country writes them (OpenCage's address-formatting templates, through
 * @fragaria/address-formatter): the order of street, postcode, city and region, and the
 * country's name last. The country may be typed as a name ("Germany"), a two- or three-letter ISO
 * code ("DE", "USA"); i18n-iso-countries reads it. An address without structured parts is printed
 * as it was typed.
 */
// Loaded through require: the server build leaves the package external, and Node's ESM loader
// takes a JSON file only with an import attribute that the build does not write.
// Both packages are CommonJS: Node's ESM loader gives their default export only.
countries.registerLocale(
  createRequire(import.meta.url)('i18n-iso-countries/langs/en.json') as countries.LocaleData,
);

export type PostalAddress = {
  address: string;
  city?: string;
  region?: string;
  postalCode?: string;
  country?: string;
};

/** The ISO 3166-1 alpha-2 code of a country typed as a name or a code; undefined if unknown. */
export function countryCode(country: string | undefined): string | undefined {
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

/** The lines of an address in its country's order, the country's name last. */
export function addressLines(address: PostalAddress): string[] {
  const street = address.address.trim();
  const city = address.city?.trim() ?? '';
  const region = address.region?.trim() ?? '';
  const postalCode = address.postalCode?.trim() ?? '';
  const country = address.country?.trim() ?? '';
  if (!city && !region && !postalCode && !country) return street ? street.split(/\r?\n/) : [];
  const code = countryCode(country);
  const lines = addressFormatter.format(
    {
      road: street,
      city,
      state: region,
      postcode: postalCode,
      ...(code ? { countryCode: code } : { country }),
    },
    { output: 'array', appendCountry: !!code, cleanupPostcode: false },
  );
  // Without a known country the template cannot name it: the typed name goes last as it was.
  if (!code && country && !lines.includes(country)) lines.push(country);
  return lines.filter((line) => line.trim());
}
