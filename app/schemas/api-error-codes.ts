/**
 * The `code` of every API error body: stable snake_case names a client can branch on, where
 * `error` and `message` are text for people. Codes are added, never renamed or removed. The
 * OpenAPI document lists them with their meanings.
 */
export const API_ERROR_CODE_MEANINGS = {
  validation_failed:
    'The body, query or a path parameter is not valid; `details` says which field and why (an unknown body field included)',
  malformed_json: 'The body is not valid JSON',
  malformed_request:
    'The request cannot be read: the address has malformed percent-encoding, or the body was cut off before its end',
  authentication_required:
    'No credential, or one that is not valid (expired token, revoked key): WWW-Authenticate says which',
  password_change_required:
    'The account has a temporary password: change it with POST /api/auth/password first',
  invalid_signature:
    'An inbound text (POST /api/sms/inbound) without the signature of the SMS provider or of SMS_INBOUND_SECRET, or a Stripe event (POST /api/stripe/webhook) without a valid Stripe-Signature',
  forbidden:
    'The credential may not do this: a role or API key scope it lacks, or a cross-site request',
  not_found: 'No record with that id, or no endpoint at that path',
  tracking_number_not_found: 'No parcel has that tracking number',
  tracking_number_mistyped:
    'No parcel has that tracking number and its last digit is not the check digit of the eight before it: a typing error',
  method_not_allowed: 'The path does not take that method: Allow lists those it does',
  precondition_failed:
    'If-Match named a version of the record that is no longer the stored one (someone changed it meanwhile): GET it again, apply your change to that and send its ETag',
  conflict:
    'The state of things refuses the change: a duplicate, or an action not allowed in the record’s current state',
  idempotency_key_in_progress:
    'A request with this Idempotency-Key is still being processed: retry after Retry-After',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different request',
  proof_of_delivery_exists: 'The stop already has its proof of delivery',
  parcel_closed:
    'The parcel is Delivered or Returned: a scan no longer changes it (`status` says which); staff reopen it with POST /api/parcels/{id}/reopen',
  proof_of_delivery_required:
    'Delivered is recorded with a proof of delivery of the stop (`destination`): POST /api/parcels/{id}/proof-of-delivery, or a scan with `receivedBy` where the settings allow one',
  scan_needs_confirmation:
    'An Out for Delivery scan contradicts the delivery (the recipient asked for another day or to hold it, or it goes to another town): `warnings` says how; send it again with `override: true` to record it anyway',
  run_started:
    'The run has started (or is completed): its stops no longer change, and it starts once',
  parcel_on_started_run:
    'A parcel is out for delivery on another courier’s started run: it moves to another run only once that stop is done',
  pickup_on_started_run:
    'A pickup is a stop of another courier’s started run: it moves to another run only once that stop is done',
  destination_not_served:
    'The rate card serves no zone with this postcode (`details` names `from.postalCode` or `to.postalCode`): it is not priced by guess',
  service_not_offered:
    'The rate card has no price for this service, zone and chargeable weight (`details` names `serviceType` or `weight`)',
  quote_not_found: 'No quote of the caller’s has that `quoteId`',
  quote_used:
    'The quote was already used for a booking: a quote books one parcel; ask for a new one',
  quote_expired:
    'The quote has expired: `quote` is a new quote for the same parcel and service at today’s price (null when the card no longer prices it)',
  pickup_too_late:
    'The pickup’s day is past its cut-off (14:00 company time for the same day unless the settings say otherwise) or is not a business day (Monday to Friday): `nextDate` (and `details.nextDate`) is the first day open',
  pickup_closed:
    'The pickup is no longer scheduled (cancelled, completed or missed), or its day’s cut-off has passed: it no longer changes',
  currency_mismatch:
    'An amount is not in the currency it must be in (a statement’s is COMPANY_CURRENCY): `details` names the field',
  card_payment_unavailable:
    'Card payment is not offered here (Stripe is not configured), or a card booking was asked for without `quoteId` (the price it charges)',
  payment_pending:
    'The parcel was booked to be paid by card and Stripe has not confirmed the payment (or it expired): it takes no scan and no pickup until it is paid',
  payment_provider_unavailable:
    'The card payment provider (Stripe) did not answer: nothing was booked; try again',
  payload_too_large: 'The body is larger than the endpoint takes',
  unsupported_media_type: 'The body is not of a type the endpoint takes (JSON, or CSV for imports)',
  unsupported_image: 'An uploaded image is not one the endpoint can read',
  image_too_large:
    'An uploaded image would take too much memory to decode: more than 50 megapixels, or more than 160 MB decoded (width × height × channels × bytes per sample), read from its header',
  rate_limited: 'Too many requests: wait Retry-After seconds (RateLimit-* say the budget)',
  internal_error: 'Something failed on our side; the request may be retried',
  service_unavailable: 'The database is unavailable; retry later',
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_CODE_MEANINGS;

export const API_ERROR_CODES = Object.keys(API_ERROR_CODE_MEANINGS) as ApiErrorCode[];

/** The code of an error answer that names none of its own. */
export function defaultErrorCode(status: number): ApiErrorCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'authentication_required';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 412:
      return 'precondition_failed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'idempotency_key_reused';
    case 429:
      return 'rate_limited';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'validation_failed';
  }
}
