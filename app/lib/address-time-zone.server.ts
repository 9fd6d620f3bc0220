import { createRequire } from 'node:module';
import type { CityData } from 'city-timezones';
import { getCountriesForTimezone, getCountry } from 'countries-and-timezones';
import { lookup as zipcodeTimeZone } from 'zipcode-to-timezone';
import { canonicalTimeZone, isTimeZone } from '~/utils/time-zone';
import { countryCode } from './countries.server';
import { env } from './env.server';

/**
 * The IANA time zone of a place, from what its address says: an explicit `timeZone` wins; else a
 * US ZIP code (zipcode-to-timezone), the city in its country and region (city-timezones, the
 * largest town of that name), the country's only zone (countries-and-timezones), its region's or
 * its largest town's; else nothing, and the caller falls back (the company's zone). An address
 * that names no country is read as in the company's country. Server-side only: the data is a
 * few megabytes that no page ships.
 */

export type ZonedAddress = {
  timeZone?: string | null;
  address?: string | null;
  city?: string | null;
  region?: string | null;
  postalCode?: string | null;
  country?: string | null;
};

type Town = Pick<CityData, 'city' | 'iso2' | 'province' | 'state_ansi' | 'timezone' | 'pop'>;

let towns: { byName: Map<string, Town[]>; byCountry: Map<string, Town[]> } | undefined;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s.'’-]+/g, ' ')
    .trim()
    .toLowerCase();

/** The towns of city-timezones by folded name and by country, largest first, read once. */
function townIndex() {
  if (towns) return towns;
  // CommonJS with a JSON file inside: required, as the server build leaves it external.
  const { cityMapping } = createRequire(import.meta.url)('city-timezones') as {
    cityMapping: Town[];
  };
  const byName = new Map<string, Town[]>();
  const byCountry = new Map<string, Town[]>();
  for (const town of [...cityMapping].sort((a, b) => b.pop - a.pop)) {
    const name = fold(town.city);
    byName.set(name, [...(byName.get(name) ?? []), town]);
    byCountry.set(town.iso2, [...(byCountry.get(town.iso2) ?? []), town]);
  }
  towns = { byName, byCountry };
  return towns;
}

function inRegion(town: Town, region: string) {
  const wanted = fold(region);
  return fold(town.province) === wanted || fold(town.state_ansi ?? '') === wanted;
}

/** The company's country: the one its zone belongs to. */
function companyCountry(): string | undefined {
  return getCountriesForTimezone(env.COMPANY_TIMEZONE)[0]?.id;
}

/** The zone of `address`, or null when nothing in it says one. */
export function addressTimeZone(address: ZonedAddress): string | null {
  const explicit = address.timeZone?.trim();
  if (explicit && isTimeZone(explicit)) return canonicalTimeZone(explicit);
  const city = address.city?.trim() ?? '';
  const region = address.region?.trim() ?? '';
  const postalCode = address.postalCode?.trim() ?? '';
  const typedCountry = address.country?.trim() ?? '';
  if (!city && !region && !postalCode && !typedCountry) return null;
  const code = typedCountry ? countryCode(typedCountry) : companyCountry();
  if (!code) return null;
  if (code === 'US') {
    const zip = /^(\d{5})(?:-?\d{4})?$/.exec(postalCode)?.[1];
    const zone = zip ? zipcodeTimeZone(zip) : null;
    if (zone && isTimeZone(zone)) return zone;
  }
  const zones = getCountry(code)?.timezones ?? [];
  if (zones.length === 1) return zones[0]!;
  const index = townIndex();
  if (city) {
    const named = (index.byName.get(fold(city)) ?? []).filter((t) => t.iso2 === code);
    const town = (region && named.find((t) => inRegion(t, region))) || named[0];
    if (town) return town.timezone;
  }
  const inCountry = index.byCountry.get(code) ?? [];
  const regional = region ? inCountry.find((t) => inRegion(t, region)) : undefined;
  if (regional) return regional.timezone;
  // Only the country is known: the company's own zone when it is in it, else its largest town's.
  if ((zones as readonly string[]).includes(env.COMPANY_TIMEZONE)) return env.COMPANY_TIMEZONE;
  return inCountry[0]?.timezone ?? zones[0] ?? null;
}

/** A parcel as far as its zones go: its recipient and its stops. */
export type ZonedParcel = {
  recipient?: (ZonedAddress & { name?: string | null }) | null;
  destinations?: Array<ZonedAddress & { name?: string | null }> | null;
};

const sameText = (a: string | null | undefined, b: string | null | undefined) =>
  !!a?.trim() &&
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b?.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The stop the recipient is named on: the stop under the recipient's name, else the one at the
 * recipient's address, else the only stop; null when none of them is.
 */
export function recipientStopIndex(parcel: ZonedParcel): number | null {
  const stops = parcel.destinations ?? [];
  const named = stops.findIndex((stop) => sameText(stop.name, parcel.recipient?.name));
  if (named >= 0) return named;
  const at = stops.findIndex((stop) => sameText(stop.address, parcel.recipient?.address));
  if (at >= 0) return at;
  return stops.length === 1 ? 0 : null;
}

/**
 * The recipient's zone, in which their window and promises are read: the recipient's address
 * (its `timeZone` first), else the stop they are named on, else the company's.
 */
export function recipientTimeZone(parcel: ZonedParcel): string {
  const recipient = addressTimeZone(parcel.recipient ?? {});
  if (recipient) return recipient;
  const stop = recipientStopIndex(parcel);
  const at = stop === null ? null : addressTimeZone(parcel.destinations?.[stop] ?? {});
  return at ?? env.COMPANY_TIMEZONE;
}

/** The zone of one stop: the recipient's for their own, else the stop's address's, else the company's. */
export function stopTimeZone(parcel: ZonedParcel, index: number): string {
  if (recipientStopIndex(parcel) === index || !parcel.destinations?.[index])
    return recipientTimeZone(parcel);
  return addressTimeZone(parcel.destinations[index]!) ?? env.COMPANY_TIMEZONE;
}

/**
 * The zone of a place typed as one line ("Seattle, WA", "Paris, France", "Lyon"): its first part
 * read as a town, the next as its region or country; null unless a town of that name is known
 * (and, when more follows, one in that region or country).
 */
export function placeTimeZone(place: string | null | undefined): string | null {
  const [name = '', ...rest] = (place ?? '').split(',').map((part) => part.trim());
  if (!name) return null;
  const named = townIndex().byName.get(fold(name)) ?? [];
  if (!named.length) return null;
  if (!rest.length) return named[0]!.timezone;
  for (const qualifier of rest) {
    const code = countryCode(qualifier);
    const town =
      named.find((t) => inRegion(t, qualifier)) ?? (code && named.find((t) => t.iso2 === code));
    if (town) return town.timezone;
  }
  return null;
}
