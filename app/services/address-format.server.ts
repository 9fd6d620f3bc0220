import addressFormatter from '@fragaria/address-formatter';
import { countryCode } from '~/lib/countries.server';
import { remembered } from '~/utils/remembered';

export { countryCode };

/**
 * Postal addresses as their country writes them (OpenCage's address-formatting templates, through
 * @fragaria/address-formatter): the order of street, postcode, city and region, and the
 * country's name last. The country may be typed as a name ("Germany"), a two- or three-letter ISO
 * code ("DE", "USA"); i18n-iso-countries reads it. An address without structured parts is printed
 * as it was typed.
 */
export type PostalAddress = {
  address: string;
  city?: string;
  region?: string;
  postalCode?: string;
  country?: string;
};

/** The lines of an address in its country's order, the country's name last. */
export function addressLines(address: PostalAddress): string[] {
  return [
    ...laidOut(
      address.address.trim(),
      address.city?.trim() ?? '',
      address.region?.trim() ?? '',
      address.postalCode?.trim() ?? '',
      address.country?.trim() ?? '',
    ),
  ];
}

/** The template's lines for an address's parts, kept: the same towns and streets come back. */
const laidOut = remembered(
  (street: string, city: string, region: string, postalCode: string, country: string) => {
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
  },
  (...parts) => JSON.stringify(parts),
  5000,
);

/**
 * A stop's postal address on one line, in its country's order: the stop's own, else the
 * recipient's (a parcel with no stops, or a stop without a street).
 */
export function stopAddress(
  parcel: { recipient: PostalAddress; destinations: PostalAddress[] },
  stop: number,
): string {
  const place = parcel.destinations[stop];
  return addressLines(place?.address ? place : parcel.recipient).join(', ');
}
