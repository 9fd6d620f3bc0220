import { TEXT_EVENTS } from './texts';
import { API_ERROR_CODE_MEANINGS, API_ERROR_CODES } from '~/schemas/api-error-codes';
import { SAFE_PLACE_CODES } from './delivery-preferences';
import { z } from './zod';
import { API_KEY_SCOPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './integrations';
import { USER_ROLES } from './user';
import { RUN_STATUSES, STOP_KINDS, STOP_OUTCOMES } from './run';
import { PICKUP_STATUSES } from './pickup';
import { SHIPPER_ROLE } from './roles';
import { ACCOUNT_LANGUAGES, ACCOUNT_STATUSES } from './account';
import {
  BOOKING_PAYMENT_METHODS,
  CARD_PAYMENT_HOURS,
  PAYMENT_STATUSES,
  EVENT_STATUSES,
  FAILURE_REASON_CODES,
  PICKUP_MISSED_REASON_CODES,
  NOTIFICATION_TYPES,
  PARCEL_STATUSES,
  PAYMENT_METHODS,
  PRIORITIES,
  RECEIPT_STATUSES,
  SERVICE_TYPES,
  TRACKING_NUMBER_PATTERN,
} from './constants';

/**
 * The shapes the API answers with, for the OpenAPI document (services/openapi.server.ts). Objects
 * are open (`looseObject`): fields are added over time, never renamed or removed, so a client must
 * ignore what it does not know. The integration suite checks real answers against these.
 */
const id = z
  .string()
  .regex(/^[a-f\d]{24}$/)
  .describe('Object id (24 hex digits)');
const isoDate = z.iso.datetime({ offset: true });
const nullableDate = isoDate.nullable();
const ids = { id, _id: id };

export const ErrorSchema = z
  .looseObject({
    error: z.string().describe('What went wrong (the same text as message)'),
    message: z.string(),
    code: z
      .enum(API_ERROR_CODES)
      .describe(
        `A stable snake_case name a client can branch on (codes are added, never renamed or removed): ${API_ERROR_CODES.map((code) => `${code}: ${API_ERROR_CODE_MEANINGS[code]}`).join('; ')}`,
      ),
    details: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('Per-field messages, keyed by dotted path, on validation errors'),
  })
  .meta({ id: 'Error' });

export const MoneySchema = z
  .looseObject({
    amount: z.number().int().describe('In the currency’s minor units (2599 is $25.99)'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217'),
  })
  .meta({ id: 'Money' });

export const QuoteSchema = z
  .looseObject({
    ...ids,
    serviceType: z.enum(SERVICE_TYPES),
    amount: z.number().int().describe('The price, in the currency’s minor units'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217'),
    breakdown: z
      .array(z.looseObject({ label: z.string(), amount: z.number().int() }))
      .describe('The lines the price adds up from (a discount is negative), in minor units'),
    estimatedDelivery: z.iso.date().describe('The day it is delivered if booked today'),
    expiresAt: isoDate.describe('Book with `quoteId` before then; a quote books one parcel'),
  })
  .meta({ id: 'Quote' });

const zoneAnswer = z.looseObject({
  code: z.string(),
  name: z.string(),
  countries: z.array(z.string()),
  postcodePrefixes: z.array(z.string()),
});

export const RateCardObjectSchema = z
  .looseObject({
    currency: z.string(),
    volumetricDivisor: z.number(),
    fuelSurchargePercent: z.number(),
    remoteSurchargeAmount: z.number().int(),
    remoteAreas: z.array(
      z.looseObject({ country: z.string(), postcodePrefixes: z.array(z.string()) }),
    ),
    zones: z.array(zoneAnswer),
    prices: z.array(
      z.looseObject({
        zone: z.string(),
        serviceType: z.enum(SERVICE_TYPES),
        maxWeightKg: z.number(),
        priceAmount: z.number().int(),
      }),
    ),
    accountDiscounts: z.array(
      z.looseObject({ accountId: z.string(), discountPercent: z.number() }),
    ),
    updatedAt: nullableDate.describe('When it was last saved; null for the starting card'),
  })
  .meta({ id: 'RateCard' });

export const QuoteExpiredSchema = ErrorSchema.extend({
  quote: QuoteSchema.nullable()
    .optional()
    .describe(
      '`quote_expired`: a new quote for the same parcel and service at today’s price; null when the card no longer prices it',
    ),
}).meta({ id: 'QuoteExpired' });

export const PaginationSchema = z
  .looseObject({
    totalItems: z.number().int().min(0),
    currentPage: z.number().int().min(1),
    totalPages: z.number().int().min(0).describe('0 when the list is empty'),
    limit: z.number().int().min(1),
  })
  .meta({ id: 'Pagination' });

const ContactSchema = z.looseObject({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string().optional(),
  region: z.string().optional().describe('State, province or county'),
  postalCode: z.string().optional(),
  country: z.string().optional().describe('A name or an ISO 3166 code'),
  timeZone: z
    .string()
    .optional()
    .describe('The address’s IANA zone when given; empty: derived from the address'),
});

const eventStatus = z
  .enum(EVENT_STATUSES)
  .describe("Moves the parcel's status (a Custom Status does not: customStatus says what it is)");
const customStatus = z
  .string()
  .nullable()
  .describe('What a Custom Status says, shown in its place; null for the other statuses');
const parcelStatus = z.enum(PARCEL_STATUSES);

export const TrackingEventObjectSchema = z
  .looseObject({
    ...ids,
    status: eventStatus,
    customStatus,
    location: z.string(),
    description: z.string(),
    timestamp: nullableDate,
    timeZone: z.string().describe('IANA time zone where it happened'),
    depotId: id.nullable().optional().describe('The depot it was recorded at, if any'),
    reason: z
      .enum(FAILURE_REASON_CODES)
      .nullable()
      .optional()
      .describe('Why a Failed Delivery attempt failed'),
    nextAttemptDate: z
      .string()
      .nullable()
      .optional()
      .describe('A Failed Delivery: the day of the next attempt (YYYY-MM-DD), if known'),
    override: z
      .array(z.string())
      .optional()
      .describe(
        'An Out for Delivery scan recorded although it contradicted the delivery: the warnings the courier confirmed',
      ),
    createdAt: nullableDate.optional(),
    updatedAt: nullableDate.optional().describe('When the event last changed'),
  })
  .meta({ id: 'TrackingEvent' });

export const ParcelEventSchema = TrackingEventObjectSchema.extend({ parcelId: id }).meta({
  id: 'ParcelTrackingEvent',
});

const DeliveryWindowSchema = z
  .looseObject({ from: nullableDate, until: z.string() })
  .nullable()
  .describe(
    'The expected window on the estimated day; the public lookup gives the service rule’s (from null) when none was set',
  );

export const DeliveryPreferencesSchema = z
  .looseObject({
    instructions: z.string().nullable(),
    safePlace: z.enum(SAFE_PLACE_CODES).nullable(),
    safePlaceOther: z.string().nullable(),
    requestedDate: z.string().nullable().describe('YYYY-MM-DD, in the company’s zone'),
    holdAtDepot: z.boolean(),
    updatedAt: nullableDate,
  })
  .meta({ id: 'DeliveryPreferences' });

export const DeliveryPreferencesResultSchema = z
  .looseObject({ deliveryPreferences: DeliveryPreferencesSchema })
  .meta({ id: 'DeliveryPreferencesResult' });

export const EtaSchema = z
  .looseObject({
    from: isoDate.describe('The window opens'),
    until: isoDate.describe('The window closes, an hour later'),
    stopsBefore: z.number().int().min(0).describe('Stops the courier makes before this one'),
    stops: z.number().int().min(1).describe('Stops on the run'),
  })
  .meta({ id: 'Eta' });

export const ParcelSchema = z
  .looseObject({
    ...ids,
    trackingNumber: z.string().regex(TRACKING_NUMBER_PATTERN),
    sender: ContactSchema,
    recipient: ContactSchema.extend({
      phoneE164: z
        .string()
        .regex(/^\+[1-9]\d{6,14}$/)
        .nullable()
        .describe(
          'The phone as typed, read with the address’s country (else the server’s DEFAULT_PHONE_COUNTRY) and written in E.164; null when it cannot receive texts',
        ),
      phoneProblem: z
        .string()
        .nullable()
        .describe(
          'Why no text can go to the phone (none, not a number, not a mobile); null when one can',
        ),
    }),
    weight: z.number(),
    dimensions: z.looseObject({ length: z.number(), width: z.number(), height: z.number() }),
    serviceType: z.enum(SERVICE_TYPES),
    status: parcelStatus.describe('Follows its newest event (or what staff set by hand)'),
    priority: z.enum(PRIORITIES),
    estimatedDelivery: nullableDate,
    actualDelivery: nullableDate,
    deliveryWindow: DeliveryWindowSchema,
    deliveryPreferences: DeliveryPreferencesSchema.nullable().describe(
      'What the recipient asked for behind their postcode; null when nothing was asked',
    ),
    cost: z.number().describe('The price in major units (the spec’s field; `price` is exact)'),
    price: MoneySchema.nullable()
      .optional()
      .describe(
        'The price it was booked at, in the currency’s minor units; null for a parcel booked before prices',
      ),
    paymentMethod: z
      .enum(BOOKING_PAYMENT_METHODS)
      .nullable()
      .optional()
      .describe('How its booking is paid; null when it was not booked at a price'),
    payment: z
      .looseObject({
        status: z
          .enum(PAYMENT_STATUSES)
          .describe(
            `pending until Stripe's signed event says the payment is made (paid); expired when it was not paid within ${CARD_PAYMENT_HOURS} hours, and the booking cancelled`,
          ),
        checkoutUrl: z
          .string()
          .nullable()
          .describe("Stripe Checkout's page where the booking is paid, while it is pending"),
        expiresAt: nullableDate.describe('When an unpaid booking is cancelled'),
        paidAt: nullableDate,
      })
      .nullable()
      .optional()
      .describe(
        'A card booking’s payment (paymentMethod card); null otherwise. Never marked paid but by Stripe’s signed event: an unpaid booking takes no scan and no pickup',
      ),
    destinations: z.array(
      z.looseObject({
        id: id.optional(),
        _id: id.optional(),
        name: z.string(),
        address: z.string(),
        city: z.string(),
        region: z.string().optional().describe('State, province or county'),
        country: z.string(),
        postalCode: z.string(),
      }),
    ),
    events: z.array(TrackingEventObjectSchema).optional(),
    eta: EtaSchema.nullable()
      .optional()
      .describe(
        'While out for delivery on a started run: the one-hour window of its stop and the stops before it; null otherwise',
      ),
    createdAt: nullableDate,
    updatedAt: nullableDate,
    accountId: id
      .nullable()
      .describe("The shipper account the parcel belongs to; null for the courier's own"),
    livemode: z
      .boolean()
      .describe("false for an account's test parcel (made with an sk_test_ key): never delivered"),
    reference: z
      .string()
      .describe("The shipper's own reference (such as an order number); empty when none"),
  })
  .meta({ id: 'Parcel' });

export const DeletedRecordSchema = z
  .looseObject({
    ...ids,
    deleted: z.literal(true),
    deletedAt: isoDate,
    parcelId: id.optional().describe('A deleted tracking event: the parcel it belonged to'),
  })
  .describe(
    'A record deleted since the sync began: drop your copy. Listed for 30 days after the deletion',
  )
  .meta({ id: 'DeletedRecord' });

export const NotificationSchema = z
  .looseObject({
    ...ids,
    type: z.enum(NOTIFICATION_TYPES),
    recipient: z.string(),
    title: z.string(),
    subject: z.string(),
    message: z.string(),
    trackingNumber: z.string(),
    parcelId: id.nullable(),
    status: z.enum(['pending', 'sent', 'failed']),
    channel: z
      .enum(['email', 'sms'])
      .describe('How it goes: an e-mail to an address, or a text to a phone number (E.164)'),
    emailResult: z.looseObject({
      messageId: z.string().nullable(),
      error: z.string().nullable(),
      sentAt: nullableDate,
      attempts: z.number().int(),
    }),
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Notification' });

export const ReceiptSchema = z
  .looseObject({
    ...ids,
    receiptNumber: z.string().regex(/^RCP-\d{4}-\d{4,}$/),
    parcelId: id,
    trackingNumber: z.string(),
    customerName: z.string(),
    customerEmail: z.string(),
    amount: z.number(),
    service: z.enum(SERVICE_TYPES),
    date: isoDate,
    status: z.enum(RECEIPT_STATUSES),
    tax: z.number(),
    subtotal: z.number(),
    total: z.number(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    format: z.enum(['pdf', 'html', 'txt']),
    emailedAt: nullableDate,
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Receipt' });

export const UserSchema = z
  .looseObject({
    ...ids,
    username: z.string(),
    name: z.string(),
    email: z.string(),
    role: z
      .enum([...USER_ROLES, SHIPPER_ROLE])
      .describe("shipper: a shipper account's user, who signs in to the portal (/account)"),
    accountRole: z
      .enum(['admin', 'member'])
      .nullable()
      .optional()
      .describe("A shipper: the account's admin or a member"),
  })
  .meta({ id: 'User' });

const MonthChangeSchema = z.looseObject({
  thisMonth: z.number(),
  lastMonth: z.number(),
  percent: z.number().nullable(),
  label: z.string(),
});

export const DashboardStatsSchema = z
  .looseObject({
    totalParcels: z.number().int(),
    activeParcels: z.number().int(),
    deliveredParcels: z.number().int(),
    totalRevenue: z.number(),
    changes: z.looseObject({
      totalParcels: MonthChangeSchema,
      activeParcels: MonthChangeSchema,
      deliveredParcels: MonthChangeSchema,
      totalRevenue: MonthChangeSchema,
    }),
  })
  .meta({ id: 'DashboardStats' });

export const RecentTrackingEventSchema = ParcelEventSchema.extend({
  trackingNumber: z.string(),
}).meta({ id: 'RecentTrackingEvent' });

export const PublicTrackingSchema = z
  .looseObject({
    parcel: z.looseObject({
      trackingNumber: z.string(),
      status: parcelStatus,
      recipient: z.looseObject({
        name: z.string(),
        address: z
          .string()
          .describe(
            'The town, region and postcode area only ("Seattle, WA 981…"), never the street',
          ),
      }),
      sender: z.looseObject({ address: z.string() }),
      serviceType: z.enum(SERVICE_TYPES),
      estimatedDelivery: nullableDate,
      deliveryWindow: DeliveryWindowSchema.optional(),
      actualDelivery: nullableDate.optional(),
      updatedAt: nullableDate.optional(),
      timeZone: z
        .string()
        .optional()
        .describe('The recipient’s IANA zone, in which the window and the expected day are read'),
      requestedDate: z
        .string()
        .nullable()
        .optional()
        .describe('The day the recipient asked for (YYYY-MM-DD), if any'),
      holdAtDepot: z.boolean().optional().describe('The recipient collects it at the depot'),
    }),
    events: z.array(
      z.looseObject({
        id,
        status: eventStatus,
        customStatus: customStatus.optional(),
        location: z.string(),
        description: z.string(),
        timestamp: nullableDate,
        timeZone: z.string(),
        reason: z
          .enum(FAILURE_REASON_CODES)
          .nullable()
          .optional()
          .describe('Why a Failed Delivery attempt failed'),
      }),
    ),
  })
  .meta({ id: 'PublicTracking' });

/** A scan that records nothing, with what the station needs to go on. */
export const ScanRefusedSchema = ErrorSchema.extend({
  status: z
    .enum(PARCEL_STATUSES)
    .optional()
    .describe('parcel_closed: the status that ended the journey (Delivered or Returned)'),
  destination: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('proof_of_delivery_required: the stop whose proof records the delivery, from 0'),
  warnings: z
    .array(z.string())
    .optional()
    .describe('scan_needs_confirmation: what the Out for Delivery scan contradicts'),
}).meta({ id: 'ScanRefused' });

export const TrackingNotFoundSchema = ErrorSchema.extend({ trackingNumber: z.string() }).meta({
  id: 'TrackingNotFound',
});

export const TrackingBatchResultSchema = z
  .looseObject({
    results: z.array(
      z.union([
        z.looseObject({
          trackingNumber: z.string(),
          found: z.literal(true),
          parcel: PublicTrackingSchema.shape.parcel,
          events: PublicTrackingSchema.shape.events,
        }),
        z.looseObject({
          trackingNumber: z.string(),
          found: z.literal(false),
          error: z.string(),
          message: z.string(),
        }),
      ]),
    ),
  })
  .meta({ id: 'TrackingBatchResult' });

export const SubscriptionRequestedSchema = z
  .looseObject({
    message: z
      .string()
      .describe('The same whatever the address: a confirmation e-mail is sent when it can be'),
  })
  .meta({ id: 'SubscriptionRequested' });

export const SmsInboundResultSchema = z
  .looseObject({
    received: z.literal(true),
    outcome: z
      .enum(['stopped', 'started', 'neighbour', 'depot', 'closed', 'ignored'])
      .describe(
        'What the text did: the number stopped or started, the parcel left with a neighbour or held at the depot, nothing because the parcel was delivered (closed), or nothing at all (ignored)',
      ),
  })
  .meta({ id: 'SmsInboundResult' });

export const HealthSchema = z
  .looseObject({
    status: z.enum(['ok', 'error']),
    database: z.enum(['up', 'down']),
    timestamp: isoDate,
  })
  .meta({ id: 'Health' });

export const SuccessSchema = z
  .looseObject({ success: z.literal(true), message: z.string() })
  .meta({ id: 'Success' });

export const ApiKeySchema = z
  .looseObject({
    ...ids,
    name: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    createdAt: isoDate,
    lastUsedAt: nullableDate,
    accountId: id
      .nullable()
      .describe('The shipper account the key acts for (sk_live_/sk_test_); null for a company key'),
    livemode: z.boolean().describe("An account's key: false for a test key (sk_test_)"),
  })
  .meta({ id: 'ApiKey' });

/** A structured postal address: an account's, a pickup's. */
const PostalAddressObject = z.looseObject({
  address: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
});

export const AccountSchema = z
  .looseObject({
    ...ids,
    name: z.string().describe('The company'),
    email: z.string().describe('Its contact e-mail'),
    phone: z.string(),
    address: PostalAddressObject.describe('Its billing address'),
    pickupAddress: PostalAddressObject.describe(
      'Where parcels are collected: the sender of a parcel its key creates without one',
    ),
    language: z.enum(ACCOUNT_LANGUAGES),
    status: z
      .enum(ACCOUNT_STATUSES)
      .describe("suspended: the account's keys answer 401 and its users are signed out"),
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Account' });

export const WebhookSchema = z
  .looseObject({
    ...ids,
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    active: z.boolean(),
    createdAt: isoDate,
    accountId: id
      .nullable()
      .describe("The shipper account whose parcels' events it receives; null for the company's"),
  })
  .meta({ id: 'Webhook' });

export const WebhookDeliverySchema = z
  .looseObject({
    ...ids,
    webhookId: id,
    messageId: z.string().describe('The webhook-id header: the same on every attempt'),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(
      z.looseObject({
        at: isoDate,
        statusCode: z.number().int().nullable(),
        durationMs: z.number(),
        response: z.string().describe('The first 1 KB of the answer'),
        error: z.string().nullable(),
      }),
    ),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'WebhookDelivery' });

const ProofImageSchema = z.looseObject({
  id,
  url: z.string().describe('GET it with the same credentials (the session cookie or a bearer)'),
  contentType: z.enum(['image/jpeg', 'image/png', 'image/webp']),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  size: z.number().int().min(0).describe('Bytes as stored, after re-encoding'),
});

export const ProofOfDeliveryObjectSchema = z
  .looseObject({
    ...ids,
    parcelId: id,
    trackingNumber: z.string(),
    destination: z.number().int().min(0).describe('The stop, from 0'),
    stops: z.number().int().min(1).describe("The parcel's number of stops when it was recorded"),
    stop: z.looseObject({
      name: z.string(),
      address: z.string(),
      city: z.string(),
      postalCode: z.string(),
      country: z.string(),
    }),
    receivedBy: z.string(),
    signatureName: z.string().describe('A typed name standing for a signature, or empty'),
    note: z.string(),
    photos: z
      .array(ProofImageSchema)
      .describe('Re-encoded, at most 2,048 px a side, without Exif, GPS or any metadata'),
    signature: ProofImageSchema.nullable(),
    eventId: id.nullable().describe('The Delivered tracking event it added'),
    deliveredAt: isoDate,
    recordedBy: z.string().nullable().describe('The username of who recorded it'),
    pdfUrl: z.string().describe('The proof as a one-page PDF'),
    createdAt: nullableDate,
  })
  .meta({ id: 'ProofOfDelivery' });
export const DepotObjectSchema = z
  .looseObject({
    ...ids,
    name: z.string(),
    address: z.string(),
    city: z.string().describe('The town its couriers deliver in; empty when not given'),
    timeZone: z.string().describe('IANA time zone of the depot'),
    stopMinutes: z
      .number()
      .optional()
      .describe('Minutes a courier’s run spends at each stop, until their pace today is known'),
    travelMinutes: z
      .number()
      .optional()
      .describe('Minutes a courier’s run takes between stops, until their pace today is known'),
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Depot' });

export const RunObjectSchema = z
  .looseObject({
    ...ids,
    date: z.string().describe('The company’s day (YYYY-MM-DD)'),
    depotId: id,
    courierId: id.describe('The courier (a user) it is given to'),
    status: z.enum(RUN_STATUSES),
    stops: z.array(
      z.looseObject({
        kind: z.enum(STOP_KINDS).describe('A parcel to deliver, or a pickup to make'),
        parcelId: id.nullable().describe('The parcel delivered (null for a pickup)'),
        pickupId: id.nullable().describe('The pickup made (null for a delivery)'),
        trackingNumber: z
          .string()
          .regex(TRACKING_NUMBER_PATTERN)
          .nullable()
          .describe('The parcel’s (null for a pickup)'),
        sequence: z.number().int().min(1).describe('Its place in the run, from 1'),
        eta: nullableDate.describe('Its expected arrival once the run has started'),
        outcome: z
          .enum(STOP_OUTCOMES)
          .nullable()
          .describe('A delivery is delivered or failed; a pickup collected or not_collected'),
        doneAt: nullableDate,
      }),
    ),
    startedAt: nullableDate,
    completedAt: nullableDate,
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Run' });

export const PickupObjectSchema = z
  .looseObject({
    ...ids,
    accountId: id.nullable().describe('The shipper account that asked; null for the company'),
    livemode: z.boolean().describe('false for a pickup asked for with an sk_test_ key'),
    date: z.string().describe('The company’s day (YYYY-MM-DD)'),
    window: z.looseObject({
      from: z.string().describe('HH:MM, company time'),
      until: z.string().describe('HH:MM, company time'),
    }),
    address: PostalAddressObject.describe('Where the courier collects'),
    depotId: id.nullable().describe('The depot of the address’s town, when there is one'),
    parcelIds: z.array(id).describe('The parcels named (empty when only a count was given)'),
    parcelCount: z.number().int().min(1),
    collectedCount: z
      .number()
      .int()
      .min(0)
      .describe('Parcels collected: scanned Picked Up, or the count the courier gave'),
    notes: z.string(),
    status: z
      .enum(PICKUP_STATUSES)
      .describe(
        'completed once collected (Collected on the courier’s run, or a parcel of it scanned Picked Up that day); missed when the courier came back without',
      ),
    missedReason: z
      .enum(PICKUP_MISSED_REASON_CODES)
      .nullable()
      .describe('Why nothing was collected (missed only)'),
    cancelledAt: nullableDate,
    completedAt: nullableDate,
    createdAt: nullableDate,
    updatedAt: nullableDate,
  })
  .meta({ id: 'Pickup' });

const minor = z.number().int().describe('In the currency’s minor units (cents for USD)');

export const StatementObjectSchema = z
  .looseObject({
    accountId: id,
    accountName: z.string(),
    month: z.string().describe('The company month (YYYY-MM)'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217: every …Amount is in it'),
    parcels: z
      .array(
        z.looseObject({
          parcelId: id,
          trackingNumber: z.string(),
          bookedAt: isoDate,
          serviceType: z.string(),
          recipientName: z.string(),
          priceAmount: minor.describe('Its booked price, else its `cost`'),
          currency: z.string(),
        }),
      )
      .describe('Every live parcel the account booked in the month, oldest first'),
    adjustments: z.array(
      z.looseObject({
        id,
        kind: z.enum(['credit', 'charge']),
        amount: minor.describe('Negative for a credit'),
        note: z.string(),
        createdAt: nullableDate,
      }),
    ),
    payments: z.array(
      z.looseObject({
        id,
        amount: minor,
        date: z.string().nullable().describe('The day it was paid (YYYY-MM-DD)'),
        note: z.string(),
        createdAt: nullableDate,
      }),
    ),
    parcelsAmount: minor,
    adjustmentsAmount: minor,
    totalAmount: minor.describe('The parcels and the adjustments'),
    paidAmount: minor,
    outstandingAmount: minor.describe('The total less the payments'),
    delivered: z.number().int().min(0).describe('Parcels of the account delivered in the month'),
    firstAttemptRate: z.number().min(0).max(1).nullable(),
    onTimeRate: z.number().min(0).max(1).nullable(),
  })
  .meta({ id: 'Statement' });

export const StatementAdjustmentSchema = z
  .looseObject({
    id,
    _id: id,
    accountId: id,
    month: z.string().describe('The company month (YYYY-MM)'),
    kind: z.enum(['credit', 'charge']),
    amount: minor.describe('Negative for a credit'),
    currency: z.string().regex(/^[A-Z]{3}$/),
    description: z.string(),
    createdAt: nullableDate,
  })
  .meta({ id: 'StatementAdjustment' });

export const StatementPaymentSchema = z
  .looseObject({
    id,
    _id: id,
    accountId: id,
    month: z.string().describe('The company month (YYYY-MM)'),
    amount: minor,
    currency: z.string().regex(/^[A-Z]{3}$/),
    receivedAt: z.string().describe('The company’s day it was received (YYYY-MM-DD)'),
    reference: z.string(),
    createdAt: nullableDate,
  })
  .meta({ id: 'StatementPayment' });

export const DeliveryPerformanceSchema = z
  .looseObject({
    rows: z.array(
      z.looseObject({
        key: z
          .string()
          .describe(
            'The group: a day (YYYY-MM-DD) or an ISO week (YYYY-Www) in the company’s zone, a depot’s, courier’s or account’s id, or "none"',
          ),
        delivered: z.number().int().min(0),
        firstAttemptRate: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe('Delivered without a failed attempt before; null without deliveries'),
        onTimeRate: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe(
            'Delivered within the promised window, or by the promised day; null without deliveries',
          ),
        failedAttempts: z.number().int().min(0),
        failedByReason: z.record(z.string(), z.number().int().min(0)),
        averageStopsPerRun: z
          .number()
          .min(0)
          .nullable()
          .describe('Stops per courier’s run; null when none was on a run'),
      }),
    ),
  })
  .meta({ id: 'DeliveryPerformance' });

export const ScanResultSchema = z
  .looseObject({
    event: ParcelEventSchema,
    parcel: ParcelSchema,
    repeated: z
      .literal(true)
      .optional()
      .describe(
        'The same scan (status and place) was recorded minutes ago: this is that event, nothing new was recorded or sent',
      ),
    regressedFrom: z
      .enum(PARCEL_STATUSES)
      .optional()
      .describe(
        'The scan moved the parcel back from this status (Out for Delivery → In Transit, say): recorded, and flagged',
      ),
    proofOfDelivery: ProofOfDeliveryObjectSchema.optional().describe(
      'A Delivered scan: the proof of delivery of the stop it recorded',
    ),
  })
  .meta({ id: 'ScanResult' });

/** A parcel as an event names it when the whole record is not sent. */
const ParcelRefSchema = z.looseObject({
  id,
  trackingNumber: z.string().regex(TRACKING_NUMBER_PATTERN).nullable(),
  status: z.enum(PARCEL_STATUSES).nullable(),
});
const ParcelWithoutEventsSchema = ParcelSchema.omit({ events: true });
const parcelOnly = z.looseObject({ parcel: ParcelSchema });
const eventChange = z.looseObject({
  event: ParcelEventSchema,
  parcel: ParcelRefSchema.partial({ trackingNumber: true, status: true }).describe(
    'The parcel the event belongs to (only its id once the parcel is gone)',
  ),
});
const notificationOnly = z.looseObject({ notification: NotificationSchema });

/** What `data` carries, per event type: the fields the services send. */
const WEBHOOK_DATA = {
  'parcel.created': parcelOnly,
  'parcel.updated': parcelOnly.describe('The parcel after the change'),
  'parcel.deleted': parcelOnly.describe('The parcel as it was'),
  'parcel.status_changed': z.looseObject({
    parcel: ParcelSchema,
    previousStatus: z
      .enum(PARCEL_STATUSES)
      .nullable()
      .describe('The status before this change (null for a parcel that had none)'),
  }),
  'parcel.imported': z.looseObject({
    count: z.number().int().min(0).describe('Parcels the import created'),
    trackingNumbers: z
      .array(z.string().regex(TRACKING_NUMBER_PATTERN))
      .describe('The created parcels, in file order'),
    updatedTrackingNumbers: z
      .array(z.string().regex(TRACKING_NUMBER_PATTERN))
      .describe('The stored parcels the import updated, in file order'),
  }),
  'parcel.delivered': z.looseObject({
    parcel: ParcelRefSchema,
    proofOfDelivery: ProofOfDeliveryObjectSchema.describe('The proof of the last stop'),
    proofOfDeliveryIds: z.array(id).min(1).describe("Every stop's proof of delivery, by stop"),
  }),
  'parcel.delivery_preferences_updated': z.looseObject({
    parcel: ParcelRefSchema,
    deliveryPreferences: DeliveryPreferencesSchema.describe('As the recipient set them'),
  }),
  'parcel.eta_updated': z.looseObject({
    parcel: ParcelRefSchema,
    eta: EtaSchema.describe(
      'The stop’s window and the stops before it, as the parcel now carries them',
    ),
  }),
  'parcel.scanned': z.looseObject({
    parcel: ParcelWithoutEventsSchema,
    event: ParcelEventSchema.describe('The scan'),
  }),
  'parcel.delivery_failed': z.looseObject({
    parcel: ParcelRefSchema,
    event: ParcelEventSchema,
    reason: z.enum(FAILURE_REASON_CODES).nullable(),
    nextAttemptDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .describe('The day of the next attempt, if known'),
  }),
  'tracking_event.created': eventChange,
  'tracking_event.updated': eventChange,
  'tracking_event.deleted': eventChange,
  'notification.sent': notificationOnly,
  'notification.failed': notificationOnly,
  'pickup.scheduled': z.looseObject({ pickup: PickupObjectSchema }),
  'pickup.cancelled': z.looseObject({ pickup: PickupObjectSchema }),
  'pickup.completed': z.looseObject({
    pickup: PickupObjectSchema.describe(
      'Done: collected on the courier’s run, or its first parcel scanned Picked Up that day',
    ),
  }),
  'pickup.missed': z.looseObject({
    pickup: PickupObjectSchema.describe(
      'Not collected on the courier’s run: status missed, with its `missedReason`',
    ),
  }),
} satisfies Record<WebhookEventType, z.ZodType>;

export function webhookPayloadName(type: WebhookEventType) {
  return `${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/** The body of each webhook delivery (Standard Webhooks): `{type, timestamp, data}`. */
export const WEBHOOK_PAYLOAD_SCHEMAS: Record<WebhookEventType, z.ZodType> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    z
      .looseObject({
        type: z.literal(type),
        timestamp: isoDate.describe('When the event happened'),
        accountId: id
          .nullable()
          .describe("The shipper account whose parcel it is about; null for the courier's own"),
        livemode: z.boolean().describe("false for an account's test parcel (sk_test_ keys)"),
        data: WEBHOOK_DATA[type],
      })
      .meta({ id: webhookPayloadName(type) }) as z.ZodType,
  ]),
) as Record<WebhookEventType, z.ZodType>;

export const NotificationTemplateObjectSchema = z
  .looseObject({
    id: z.string().describe('The template key, as in /api/notification-templates/{id}'),
    type: z.enum(NOTIFICATION_TYPES),
    language: z.string().describe('The language of this version (?language=, English by default)'),
    translated: z
      .boolean()
      .describe('false when the language has no version of its own: the English one is sent'),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    customized: z.boolean().describe('false while it is the default'),
    updatedAt: nullableDate,
  })
  .meta({ id: 'NotificationTemplate' });

export const NotificationSettingsObjectSchema = z
  .looseObject({
    rules: z.array(
      z.looseObject({
        status: z.enum(PARCEL_STATUSES),
        enabled: z.boolean(),
        template: z.enum(NOTIFICATION_TYPES),
      }),
    ),
    dayBefore: z
      .looseObject({ enabled: z.boolean(), template: z.enum(NOTIFICATION_TYPES) })
      .describe(
        'The e-mail to the recipient the day before the estimated delivery day, with the day and the expected window',
      ),
    texts: z
      .looseObject(Object.fromEntries(TEXT_EVENTS.map((event) => [event, z.boolean()])))
      .describe(
        'The automatic texts to the recipient’s mobile, on or off by event (out for delivery, a failed attempt, delivered, the day before); on by default once a provider (SMS_URL) is configured',
      ),
    updatedAt: nullableDate,
  })
  .meta({ id: 'NotificationSettings' });

const auditValue = z.unknown().describe('Any JSON value: a field before or after the change');

export const AuditEntrySchema = z
  .looseObject({
    ...ids,
    at: isoDate,
    actor: z.looseObject({ id: z.string(), username: z.string(), role: z.string() }),
    address: z.string(),
    via: z.enum(['page', 'api']),
    action: z.string(),
    entity: z.string(),
    entityId: z.string(),
    label: z.string(),
    parcelId: z.string().nullable(),
    changes: z.array(z.looseObject({ field: z.string(), before: auditValue, after: auditValue })),
  })
  .meta({ id: 'AuditEntry' });

const ImportErrorSchema = z.looseObject({
  row: z
    .number()
    .int()
    .min(1)
    .describe('The row as a spreadsheet numbers it: the header is row 1, the first parcel row 2'),
  field: z.string().nullable().describe('The column, or null when the whole row is meant'),
  message: z.string(),
});

export const ParcelImportResultSchema = z
  .looseObject({
    imported: z.number().int().min(0).describe('Parcels created (0 for a dry run)'),
    rows: z.number().int().min(0).describe('Parcel rows in the file, blank rows not counted'),
    dryRun: z.boolean(),
    errors: z.array(ImportErrorSchema).describe('Empty on success'),
    truncated: z.boolean().describe('More errors than the 10,000 listed'),
    trackingNumbers: z
      .array(z.string())
      .describe('The created parcels in file order, new tracking numbers included'),
    created: z
      .number()
      .int()
      .min(0)
      .describe('Rows that create a parcel (for a dry run: would); 0 when there are errors'),
    updated: z
      .number()
      .int()
      .min(0)
      .describe(
        'Rows that update the stored parcel with their tracking number (for a dry run: would); 0 when there are errors',
      ),
    unchanged: z
      .number()
      .int()
      .min(0)
      .describe('Rows of stored parcels that change nothing; 0 when there are errors'),
    updatedTrackingNumbers: z
      .array(z.string())
      .describe('The updated parcels in file order (empty for a dry run)'),
  })
  .meta({ id: 'ParcelImportResult' });

export const ParcelImportErrorSchema = z
  .looseObject({
    ...ErrorSchema.shape,
    ...ParcelImportResultSchema.shape,
    imported: z.literal(0),
  })
  .meta({ id: 'ParcelImportErrors' });
