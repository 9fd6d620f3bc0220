import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { countryCode } from './countries.server';
import { env } from './env.server';

/**
 * A recipient's phone as texts see it: the number typed, read with the address's country (or
 * DEFAULT_PHONE_COUNTRY when the address names none) and written in E.164, or why no text can go
 * to it. What was typed stays as typed on the parcel; this is worked out from it, so old parcels
 * and the spec's clients are read the same way. libphonenumber-js with its full metadata, the
 * only build that tells a mobile number from a landline.
 */

export const NO_PHONE = 'No phone number';
export const NOT_A_NUMBER = 'Not a phone number for the address’s country';
export const NOT_MOBILE = 'Not a mobile number: it cannot receive texts';

/** Types that may be a mobile phone: the US and Canada do not tell their numbers apart. */
const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'PERSONAL_NUMBER']);

export type MobilePhone = { phoneE164: string | null; phoneProblem: string | null };

const cache = new Map<string, MobilePhone>();

export function mobilePhone(
  phone: string | null | undefined,
  country?: string | null,
): MobilePhone {
  const typed = phone?.trim() ?? '';
  if (!typed) return { phoneE164: null, phoneProblem: NO_PHONE };
  const region = (countryCode(country) ?? env.DEFAULT_PHONE_COUNTRY) as CountryCode;
  const key = `${region} ${typed}`;
  const known = cache.get(key);
  if (known) return known;
  const parsed = parsePhoneNumberFromString(typed, region);
  let result: MobilePhone;
  if (!parsed?.isValid()) result = { phoneE164: null, phoneProblem: NOT_A_NUMBER };
  else if (!MOBILE_TYPES.has(parsed.getType() ?? ''))
    result = { phoneE164: null, phoneProblem: NOT_MOBILE };
  else result = { phoneE164: parsed.number, phoneProblem: null };
  // Worked out again after a restart; bounded, as the numbers typed are not.
  if (cache.size >= 5000) cache.clear();
  cache.set(key, result);
  return result;
}

/** A number as a text arrives from (any form), in E.164; null when it is not one. */
export function e164(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone.trim(), env.DEFAULT_PHONE_COUNTRY as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}
