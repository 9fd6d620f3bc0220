/**
 * The statuses a tracking event may have, why an attempt fails and where a parcel may be left: what
 * the scan station and the courier's pages need, apart from the other constants so that their
 * pages load only these.
 */

export const EVENT_STATUSES = [
  'Package Picked Up',
  'Departed Facility',
  'In Transit',
  'Arrived at Facility',
  'Out for Delivery',
  'Delivered',
  'Picked Up',
  'Failed Delivery',
  'Returned to Sender',
  'Custom Status',
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const CUSTOM_EVENT_STATUS = 'Custom Status';

export const FAILED_DELIVERY = 'Failed Delivery';

/** What a scan may record: every event status but free text. */
export const SCAN_STATUSES = EVENT_STATUSES.filter((s) => s !== 'Custom Status') as [
  EventStatus,
  ...EventStatus[],
];

/** Why a delivery attempt failed: the code, and the words the recipient's e-mail and staff read. */
export const FAILURE_REASONS = {
  recipient_unavailable: 'Nobody was available to receive the parcel',
  address_not_found: 'We could not find the delivery address',
  access_restricted: 'We could not get access to the address',
  refused: 'The parcel was refused',
  business_closed: 'The business was closed',
  damaged: 'The parcel was damaged and could not be delivered',
  weather: 'The weather prevented the delivery',
  other: 'The delivery could not be completed',
} as const;
export type FailureReason = keyof typeof FAILURE_REASONS;
/** A failed attempt's reason as the recipient reads it (an unknown code: the "other" words). */
export function failureReasonWords(reason: string | null | undefined): string {
  return FAILURE_REASONS[(reason ?? 'other') as FailureReason] ?? FAILURE_REASONS.other;
}
export const FAILURE_REASON_CODES = Object.keys(FAILURE_REASONS) as [
  FailureReason,
  ...FailureReason[],
];

/** Why a courier at a pickup came back without its parcels ("Not collected" on their run). */
export const PICKUP_MISSED_REASONS = {
  closed: 'Premises closed',
  not_ready: 'Parcels not ready',
  nothing_to_collect: 'Nothing to collect',
  no_access: 'No access',
  other: 'Other',
} as const;
export type PickupMissedReason = keyof typeof PICKUP_MISSED_REASONS;
export const PICKUP_MISSED_REASON_CODES = Object.keys(PICKUP_MISSED_REASONS) as [
  PickupMissedReason,
  ...PickupMissedReason[],
];

/** A reason code as staff read it in lists: "recipient_unavailable" → "Recipient unavailable". */
export function failureReasonLabel(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Where the recipient may ask a courier to leave a parcel ("other" comes with their words). */
export const SAFE_PLACES = {
  front_door: 'At the front door',
  back_door: 'At the back door',
  porch: 'In the porch',
  garage: 'In the garage',
  reception: 'At reception',
  neighbour: 'With a neighbour',
  other: 'Somewhere else (say where)',
} as const;
export type SafePlace = keyof typeof SAFE_PLACES;
export const SAFE_PLACE_CODES = Object.keys(SAFE_PLACES) as [SafePlace, ...SafePlace[]];

/** Photos one proof of delivery takes (the courier's form shows it; schemas/proof-of-delivery.ts checks it). */
export const MAX_PROOF_PHOTOS = 3;
