import { CUSTOM_EVENT_STATUS, EVENT_STATUSES, type EventStatus } from './event-statuses';

export const PARCEL_STATUSES = [
  'Pending',
  'In Transit',
  'Out for Delivery',
  'Delivered',
  'Picked Up',
  'Failed',
  'Returned',
] as const;
export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/** Statuses that end a parcel's journey; everything else counts as active. */
export const CLOSED_STATUSES: readonly ParcelStatus[] = ['Delivered', 'Failed', 'Returned'];

/**
 * Statuses no scan changes: a scan of such a parcel is refused and says why; only staff reopen
 * it, with a reason (reopenParcel).
 */
export const FINAL_STATUSES: readonly ParcelStatus[] = ['Delivered', 'Returned'];

/**
 * How far along its journey each status is: a scan that moves a parcel to a status further back
 * (Out for Delivery → In Transit) is recorded and flagged at the station. A failed attempt is as
 * far along as a parcel in transit: back at the depot is where it goes next.
 */
export const STATUS_PROGRESS: Record<ParcelStatus, number> = {
  Pending: 0,
  'Picked Up': 1,
  'In Transit': 2,
  Failed: 2,
  'Out for Delivery': 3,
  Delivered: 4,
  Returned: 4,
};

/** The statuses staff may reopen a delivered or returned parcel to. */
export const REOPEN_STATUSES = ['In Transit', 'Arrived at Facility', 'Out for Delivery'] as const;

export * from './event-statuses';
export * from './tracking-number';

export const PRIORITIES = ['Low', 'Standard', 'High', 'Express'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const SERVICE_TYPES = ['Standard', 'Express', 'Premium', 'Overnight'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/**
 * What an event's status reads as: a Custom Status's own words, else the status. An event stored
 * before statuses were a closed list holds its words as its status, and reads the same.
 */
export function eventStatusLabel(event: { status: string; customStatus?: string | null }): string {
  return event.status === CUSTOM_EVENT_STATUS && event.customStatus
    ? event.customStatus
    : event.status;
}

/**
 * A stored event's status as the API and the pages give it: one of EVENT_STATUSES, with a Custom
 * Status's words in `customStatus`. Words stored as the status before the list was closed are
 * given as a Custom Status with those words.
 */
export function eventStatusOf(stored: { status: string; customStatus?: string | null }): {
  status: EventStatus;
  customStatus: string | null;
} {
  if ((EVENT_STATUSES as readonly string[]).includes(stored.status))
    return {
      status: stored.status as EventStatus,
      customStatus: stored.status === CUSTOM_EVENT_STATUS ? (stored.customStatus ?? null) : null,
    };
  return { status: CUSTOM_EVENT_STATUS, customStatus: stored.status };
}

/** How a tracking event's status moves the parcel's stored status (ARCHITECTURE.md). */
export const EVENT_TO_PARCEL_STATUS: Record<string, ParcelStatus> = {
  'Package Picked Up': 'Picked Up',
  'Picked Up': 'Picked Up',
  'Departed Facility': 'In Transit',
  'Arrived at Facility': 'In Transit',
  'In Transit': 'In Transit',
  'Out for Delivery': 'Out for Delivery',
  Delivered: 'Delivered',
  'Failed Delivery': 'Failed',
  'Returned to Sender': 'Returned',
};

/** The event a status set by hand is recorded as (Pending has none: a Custom Status says it). */
export const PARCEL_TO_EVENT_STATUS: Partial<Record<ParcelStatus, EventStatus>> = {
  'Picked Up': 'Picked Up',
  'In Transit': 'In Transit',
  'Out for Delivery': 'Out for Delivery',
  Delivered: 'Delivered',
  Failed: 'Failed Delivery',
  Returned: 'Returned to Sender',
};

/**
 * The service rules' delivery windows: by when (in the company's zone) a parcel of each service
 * arrives on its estimated day, when staff or the API gave no window of its own.
 */
export const SERVICE_DELIVERY_BY: Record<ServiceType, string> = {
  Standard: '18:00',
  Premium: '17:00',
  Express: '12:00',
  Overnight: '10:30',
};

/** When (in the company's zone) the day-before e-mail goes out on the day before delivery. */
export const DAY_BEFORE_EMAIL_TIME = '10:00';

/**
 * When (in the company's zone) each day's day-before e-mails are planned for the parcels expected
 * the next day that none was planned for yet (imported ones, say): before they go out.
 */
export const DAY_BEFORE_PLANNING_TIME = '06:00';

/** A record's id as MongoDB writes it: 24 hexadecimal digits (read in any case). */
export const OBJECT_ID_PATTERN = /^[a-f\d]{24}$/i;

export const PARCEL_CREATION_COST = 25.99;
export const DEFAULT_DELIVERY_DAYS = 4;
export const CARD_DESTINATION_LIMIT = 3;
export const PARCELS_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
/** Rows per page offered by the staff parcel table, and its default. */
export const PARCEL_TABLE_PAGE_SIZES = [25, 50, 100] as const;
export const PARCEL_TABLE_PAGE_SIZE = 50;
/** Columns the parcel list sorts by (the table's sortable columns and the API's `sort`). */
export const PARCEL_SORT_KEYS = [
  'trackingNumber',
  'recipient',
  'city',
  'service',
  'status',
  'priority',
  'estimatedDelivery',
  'createdAt',
] as const;
export type ParcelSortKey = (typeof PARCEL_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The order a column sorts in when none is asked for: dates newest first, text A to Z. */
export function defaultSortOrder(sort: ParcelSortKey): SortOrder {
  return sort === 'createdAt' || sort === 'estimatedDelivery' ? 'desc' : 'asc';
}

export const NOTIFICATION_TYPES = [
  'Status Update',
  'Delivery Confirmation',
  'Pickup Confirmation',
  'Custom',
  'Delivery Reminder',
] as const;
/** A page of the Notifications tab. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** What each kind of notification is for, as the templates and the send dialog describe it. */
export const NOTIFICATION_TEMPLATE_DESCRIPTIONS: Record<
  (typeof NOTIFICATION_TYPES)[number],
  string
> = {
  'Status Update': "Tell the recipient their parcel's current status.",
  'Delivery Confirmation': 'Confirm that the parcel has been delivered.',
  'Pickup Confirmation': 'Confirm that the parcel has been picked up and is on its way.',
  Custom: 'Write your own subject and message.',
  'Delivery Reminder': 'Tell the recipient the day before delivery when to expect the parcel.',
};

/** How a notification goes: an e-mail, or a text message. */
export const NOTIFICATION_CHANNELS = ['email', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_STATUSES = ['sent', 'pending', 'failed'] as const;

export const RECEIPT_FORMATS = ['pdf', 'html', 'txt'] as const;
/**
 * How a booked parcel is paid: on the shipper account, billed by its monthly statement, or by
 * card through Stripe Checkout (offered only when Stripe is configured).
 */
export const BOOKING_PAYMENT_METHODS = ['account', 'card'] as const;
export type BookingPaymentMethod = (typeof BOOKING_PAYMENT_METHODS)[number];

/**
 * A card booking's payment: pending until Stripe's signed event says it is paid; expired when it
 * was not paid within CARD_PAYMENT_HOURS (the booking is then cancelled).
 */
export const PAYMENT_STATUSES = ['pending', 'paid', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** How long a card booking waits for its payment before it is cancelled. */
export const CARD_PAYMENT_HOURS = 24;

export const PAYMENT_METHODS = [
  'Credit Card',
  'Debit Card',
  'Bank Transfer',
  'Cash',
  'PayPal',
] as const;
export const RECEIPT_TAX_RATE = 0;

export function formatMoney(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

export const RECEIPT_STATUSES = ['generated'] as const;
export const RECEIPTS_PAGE_SIZE = 10;
export const RECEIPT_PARCEL_CHOICES = 100;

/**
 * What an API key may do: `read` answers GET requests only; `write` also changes things; `admin`
 * opens the admin areas — users, API keys and webhooks (changes there need `write` too).
 */
export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_NAME_MAX = 100;

export const MAX_PARCEL_DESTINATIONS = 50;
export const PARCEL_SEARCH_MAX_LENGTH = 100;
/** How many parcels a parcel picker's combobox offers for one search. */
export const PARCEL_OPTIONS_LIMIT = 20;

/** The most parcel rows one CSV import takes, and the most errors it lists. */
export const PARCEL_IMPORT_MAX_ROWS = 20_000;
export const PARCEL_IMPORT_MAX_ERRORS = 10_000;
/** What the import's preview shows of a row: the columns a person recognises a parcel by. */
export const PARCEL_IMPORT_PREVIEW_COLUMNS = [
  'trackingNumber',
  'status',
  'serviceType',
  'recipientName',
  'recipientAddress',
  'weight',
  'estimatedDelivery',
] as const;
/** What a row of an import does: creates a parcel, updates the one with its number, or neither. */
export type ParcelImportAction = 'New' | 'Update' | 'Unchanged';
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A field an update changes, by its stored path ('recipient.city'), as the audit trail records it. */
export type ParcelImportChange = { field: string; before: JsonValue; after: JsonValue };
export type ParcelImportPreviewRow = { row: number } & Record<
  (typeof PARCEL_IMPORT_PREVIEW_COLUMNS)[number],
  string
> & {
    /** Set once the row was checked against the stored parcels. */
    action?: ParcelImportAction;
    changes?: ParcelImportChange[];
    /** A new parcel under a number that fails its check digit: probably a stored one mistyped. */
    mistyped?: boolean;
  };
