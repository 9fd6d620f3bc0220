/**
 * How a text is carried: in GSM-7 (160 characters in one message, 153 in each part of a longer
 * one) when every character is in the GSM 03.38 alphabet, else in UCS-2 (70, then 67). A
 * character of the alphabet's extension table (€, [, ], {, }, ~, ^, |, \, form feed) takes two
 * of GSM-7's places, and one outside the Basic Multilingual Plane (most emoji) two of UCS-2's.
 * Written here because the libraries that count segments are larger than this table and the
 * rules have not changed since 1990. Pure: the template editor counts as the admin types, and
 * the server refuses a template over MAX_SMS_SEGMENTS with the same count.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** A text is refused past this many parts. */
export const MAX_SMS_SEGMENTS = 3;

export type SmsCount = {
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters as a reader counts them. */
  characters: number;
  /** The places they take in the encoding: septets, or UTF-16 code units. */
  units: number;
  segments: number;
  /** How many places the last part still has. */
  remaining: number;
};

export function countSms(text: string): SmsCount {
  const characters = [...text];
  const gsm = characters.every((c) => BASIC.has(c) || EXTENSION.has(c));
  const units = gsm
    ? characters.reduce((sum, c) => sum + (EXTENSION.has(c) ? 2 : 1), 0)
    : text.length;
  const [single, part] = gsm ? [160, 153] : [70, 67];
  const segments = units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / part);
  const capacity = segments <= 1 ? single : segments * part;
  return {
    encoding: gsm ? 'GSM-7' : 'UCS-2',
    characters: characters.length,
    units,
    segments,
    remaining: capacity - units,
  };
}

/** "42 characters · 1 message (GSM-7)", as the template editor shows the count. */
export function smsCountText(count: SmsCount): string {
  const messages = `${count.segments} message${count.segments === 1 ? '' : 's'}`;
  return `${count.characters} characters · ${messages} (${count.encoding})`;
}
