import { SAFE_PLACES, type SafePlace } from '~/schemas/event-statuses';
import { longDay } from './delivery-headline';

type Preferences = {
  instructions?: string | null;
  safePlace?: string | null;
  safePlaceOther?: string | null;
  requestedDate?: string | null;
  holdAtDepot?: boolean | null;
};

/** The lines' words in the recipient's language (the tracking page, their e-mail). */
export type PreferenceWords = {
  lang: string;
  t: (
    key: 'hold' | 'day' | 'safePlace' | 'elsewhere' | 'instructions',
    values?: Record<string, string>,
  ) => string;
  place: (code: SafePlace) => string;
};

/** Staff and couriers read them in English. */
const STAFF_WORDS: PreferenceWords = {
  lang: 'en',
  t: (key, values = {}) =>
    ({
      hold: 'Hold at the depot for collection',
      day: `Deliver on ${values.day}`,
      safePlace: `Safe place: ${values.place}`,
      elsewhere: 'elsewhere',
      instructions: `Instructions: ${values.text}`,
    })[key],
  place: (code) => SAFE_PLACES[code],
};

/**
 * What the recipient asked for, as lines: "Hold at the depot", "Deliver on Friday, 4 December",
 * "Safe place: In the porch", "Instructions: …"; for staff and couriers in English, for the
 * recipient in their language. Safe in the browser (no zod, for the scan station's weight).
 */
export function describeDeliveryPreferences(
  preferences: Preferences | null | undefined,
  words: PreferenceWords = STAFF_WORDS,
): string[] {
  if (!preferences) return [];
  const { t } = words;
  const lines: string[] = [];
  if (preferences.holdAtDepot) lines.push(t('hold'));
  if (preferences.requestedDate)
    lines.push(t('day', { day: longDay(preferences.requestedDate, words.lang) }));
  if (preferences.safePlace)
    lines.push(
      t('safePlace', {
        place:
          preferences.safePlace === 'other'
            ? (preferences.safePlaceOther ?? t('elsewhere'))
            : preferences.safePlace in SAFE_PLACES
              ? words.place(preferences.safePlace as SafePlace)
              : preferences.safePlace,
      }),
    );
  if (preferences.instructions) lines.push(t('instructions', { text: preferences.instructions }));
  return lines;
}
