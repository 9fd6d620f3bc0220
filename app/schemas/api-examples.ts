/**
 * Example records for the OpenAPI document: one per answer shape of schemas/api-responses.ts,
 * from which the operations' request and answer examples are put together. The test suite
 * checks every example in the document against its schema, so an example cannot drift from what
 * the server sends.
 */
const PARCEL_ID = '665f1c2ab4d3e8a1c0ffee01';
const EVENT_ID = '665f1c2ab4d3e8a1c0ffee02';
const DEPOT_ID = '665f1c2ab4d3e8a1c0ffee03';
const PROOF_ID = '665f1c2ab4d3e8a1c0ffee04';
const FILE_ID = '665f1c2ab4d3e8a1c0ffee05';
const USER_ID = '665f1c2ab4d3e8a1c0ffee06';
const ACCOUNT_ID = '665f1c2ab4d3e8a1c0ffee1a';
export const EXAMPLE_TRACKING_NUMBER = 'SWX123456785';
const at = '2026-05-04T14:30:00.000Z';
const created = '2026-05-01T09:00:00.000Z';
const ids = (id: string) => ({ id, _id: id });

const contact = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  address: '12 Analytical Way',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
};

const event = {
  ...ids(EVENT_ID),
  status: 'Arrived at Facility',
  customStatus: null,
  location: 'Chicago Hub',
  description: 'Sorted for delivery',
  timestamp: at,
  timeZone: 'America/Chicago',
  depotId: DEPOT_ID,
  reason: null,
  nextAttemptDate: null,
};

const parcelEvent = { ...event, parcelId: PARCEL_ID };

const ETA_EXAMPLE = {
  from: '2026-05-06T18:10:00.000Z',
  until: '2026-05-06T19:10:00.000Z',
  stopsBefore: 3,
  stops: 11,
};
const RUN_ID = '665f1c2ab4d3e8a1c0ffee08';
const PICKUP_ID = '665f1c2ab4d3e8a1c0ffee09';
const pickup = {
  ...ids(PICKUP_ID),
  accountId: ACCOUNT_ID,
  livemode: true,
  date: '2026-05-06',
  window: { from: '14:00', until: '17:00' },
  address: {
    address: '12 Dock Rd',
    city: 'Seattle',
    region: 'WA',
    postalCode: '98101',
    country: 'US',
  },
  depotId: DEPOT_ID,
  parcelIds: [PARCEL_ID],
  parcelCount: 1,
  collectedCount: 0,
  notes: 'Loading bay at the back',
  status: 'scheduled',
  missedReason: null,
  cancelledAt: null,
  completedAt: null,
  createdAt: created,
  updatedAt: created,
};
const run = {
  ...ids(RUN_ID),
  date: '2026-05-06',
  depotId: DEPOT_ID,
  courierId: USER_ID,
  status: 'planned',
  stops: [
    {
      kind: 'delivery',
      parcelId: PARCEL_ID,
      pickupId: null,
      trackingNumber: EXAMPLE_TRACKING_NUMBER,
      sequence: 1,
      eta: null,
      outcome: null,
      doneAt: null,
    },
    {
      kind: 'pickup',
      parcelId: null,
      pickupId: PICKUP_ID,
      trackingNumber: null,
      sequence: 2,
      eta: null,
      outcome: null,
      doneAt: null,
    },
  ],
  startedAt: null,
  completedAt: null,
  createdAt: created,
  updatedAt: created,
};

const parcel = {
  ...ids(PARCEL_ID),
  trackingNumber: EXAMPLE_TRACKING_NUMBER,
  sender: { ...contact, name: 'Acme Books', email: 'orders@acme.example' },
  recipient: { ...contact, phoneE164: '+12175550143', phoneProblem: null },
  weight: 2.5,
  dimensions: { length: 30, width: 20, height: 10 },
  serviceType: 'Express',
  status: 'In Transit',
  priority: 'Standard',
  estimatedDelivery: '2026-05-06T00:00:00.000Z',
  actualDelivery: null,
  deliveryWindow: { from: '2026-05-06T13:00:00.000Z', until: '2026-05-06T17:00:00.000Z' },
  deliveryPreferences: null,
  cost: 25.99,
  price: { amount: 2599, currency: 'USD' },
  paymentMethod: 'account',
  reference: 'ORDER-1042',
  destinations: [],
  events: [event],
  createdAt: created,
  updatedAt: at,
  accountId: null,
  livemode: true,
};

const quote = {
  ...ids('665f1c2ab4d3e8a1c0ffee11'),
  serviceType: 'Standard',
  amount: 999,
  currency: 'USD',
  breakdown: [{ label: 'Standard, up to 1 kg, United States', amount: 999 }],
  estimatedDelivery: '2026-05-08',
  expiresAt: '2026-05-01T12:30:00.000Z',
};

const notification = {
  ...ids('665f1c2ab4d3e8a1c0ffee07'),
  type: 'Status Update',
  recipient: 'ada@example.com',
  title: 'Your parcel is on its way',
  subject: 'Your parcel is on its way',
  message: 'It arrived at our Chicago hub.',
  trackingNumber: EXAMPLE_TRACKING_NUMBER,
  parcelId: PARCEL_ID,
  status: 'sent',
  channel: 'email',
  emailResult: { messageId: '<1@mail.example>', error: null, sentAt: at, attempts: 1 },
  createdAt: at,
  updatedAt: at,
};

const image = (contentType: string, width: number, height: number, size: number) => ({
  id: FILE_ID,
  url: `/api/proof-of-delivery/files/${FILE_ID}`,
  contentType,
  width,
  height,
  size,
});

const proofOfDelivery = {
  ...ids(PROOF_ID),
  parcelId: PARCEL_ID,
  trackingNumber: EXAMPLE_TRACKING_NUMBER,
  destination: 0,
  stops: 1,
  stop: {
    name: 'Ada Lovelace',
    address: '12 Analytical Way',
    city: 'Springfield',
    postalCode: '62701',
    country: 'US',
  },
  receivedBy: 'Ada Lovelace',
  signatureName: '',
  note: 'Left with the recipient',
  photos: [image('image/jpeg', 1600, 1200, 182044)],
  signature: null,
  eventId: EVENT_ID,
  deliveredAt: at,
  recordedBy: 'courier1',
  pdfUrl: `/api/parcels/${PARCEL_ID}/proof-of-delivery/${PROOF_ID}.pdf`,
  createdAt: at,
};

const publicParcel = {
  trackingNumber: EXAMPLE_TRACKING_NUMBER,
  status: 'In Transit',
  recipient: { name: 'Ada Lovelace', address: 'Springfield, IL' },
  sender: { address: 'Portland, OR' },
  serviceType: 'Express',
  estimatedDelivery: '2026-05-06T00:00:00.000Z',
};
const publicEvents = [
  {
    id: EVENT_ID,
    status: 'Arrived at Facility',
    location: 'Chicago Hub',
    description: 'Sorted for delivery',
    timestamp: at,
    timeZone: 'America/Chicago',
  },
];
const change = (thisMonth: number, lastMonth: number) => ({
  thisMonth,
  lastMonth,
  percent: lastMonth ? Math.round(((thisMonth - lastMonth) / lastMonth) * 100) : null,
  label: 'from last month',
});

/** One example per component schema, by its name in the document. */
export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  Error: { error: 'Parcel not found', message: 'Parcel not found' },
  Pagination: { totalItems: 1, currentPage: 1, totalPages: 1, limit: 20 },
  DeletedRecord: { ...ids('665f1c2ab4d3e8a1c0ffee07'), deleted: true, deletedAt: at },
  TrackingEvent: event,
  ParcelTrackingEvent: parcelEvent,
  RecentTrackingEvent: { ...parcelEvent, trackingNumber: EXAMPLE_TRACKING_NUMBER },
  Parcel: parcel,
  Notification: notification,
  Receipt: {
    ...ids('665f1c2ab4d3e8a1c0ffee08'),
    receiptNumber: 'RCP-2026-0042',
    parcelId: PARCEL_ID,
    trackingNumber: EXAMPLE_TRACKING_NUMBER,
    customerName: 'Acme Books',
    customerEmail: 'orders@acme.example',
    amount: 25.99,
    service: 'Express',
    date: at,
    status: 'generated',
    tax: 2.08,
    subtotal: 25.99,
    total: 28.07,
    paymentMethod: 'Credit Card',
    format: 'pdf',
    emailedAt: null,
    createdAt: at,
    updatedAt: at,
  },
  User: {
    ...ids(USER_ID),
    username: 'dispatch',
    name: 'Dispatch Desk',
    email: 'dispatch@example.com',
    role: 'staff',
  },
  DashboardStats: {
    totalParcels: 120,
    activeParcels: 35,
    deliveredParcels: 80,
    totalRevenue: 3118.8,
    changes: {
      totalParcels: change(40, 32),
      activeParcels: change(35, 30),
      deliveredParcels: change(28, 25),
      totalRevenue: change(1039.6, 831.68),
    },
  },
  PublicTracking: { parcel: publicParcel, events: publicEvents },
  ScanRefused: {
    error:
      'Delivered on 28 Nov 2026, 5:55 pm PST to J. S.: scans no longer change it. Staff can reopen it.',
    message:
      'Delivered on 28 Nov 2026, 5:55 pm PST to J. S.: scans no longer change it. Staff can reopen it.',
    code: 'parcel_closed',
    status: 'Delivered',
  },
  TrackingNotFound: {
    error: 'Tracking number not found',
    message: 'Tracking number not found',
    code: 'tracking_number_not_found',
    trackingNumber: 'SWX000000005',
  },
  TrackingBatchResult: {
    results: [
      {
        trackingNumber: EXAMPLE_TRACKING_NUMBER,
        found: true,
        parcel: publicParcel,
        events: publicEvents,
      },
      {
        trackingNumber: 'SWX000000005',
        found: false,
        error: 'Tracking number not found',
        message: 'Tracking number not found: SWX000000005',
      },
    ],
  },
  SubscriptionRequested: {
    message: 'Check your inbox: we sent a link to confirm updates on this parcel.',
  },
  Health: { status: 'ok', database: 'up', timestamp: at },
  SmsInboundResult: { received: true, outcome: 'neighbour' },
  Success: { success: true, message: 'Parcel deleted successfully' },
  ApiKey: {
    ...ids('665f1c2ab4d3e8a1c0ffee09'),
    name: 'Warehouse sync',
    scopes: ['read', 'write'],
    prefix: 'sk_3f9a',
    createdAt: created,
    lastUsedAt: at,
    accountId: null,
    livemode: true,
  },
  Account: {
    ...ids(ACCOUNT_ID),
    name: 'Acme Books',
    email: 'shipping@acmebooks.example',
    phone: '+1 503 555 0100',
    address: {
      address: '1 Harbor Rd',
      city: 'Portland',
      region: 'OR',
      postalCode: '97201',
      country: 'US',
    },
    pickupAddress: {
      address: '1 Harbor Rd',
      city: 'Portland',
      region: 'OR',
      postalCode: '97201',
      country: 'US',
    },
    language: 'en',
    status: 'active',
    createdAt: created,
    updatedAt: at,
  },
  Webhook: {
    ...ids('665f1c2ab4d3e8a1c0ffee0a'),
    url: 'https://hooks.example.com/courier',
    events: ['parcel.status_changed', 'parcel.delivered'],
    description: 'Order system',
    active: true,
    createdAt: created,
    accountId: null,
  },
  WebhookDelivery: {
    ...ids('665f1c2ab4d3e8a1c0ffee0b'),
    webhookId: '665f1c2ab4d3e8a1c0ffee0a',
    messageId: 'msg_5b0c2f6e9d1a4c7e8f0a1b2c3d4e5f60',
    type: 'parcel.status_changed',
    status: 'succeeded',
    attempts: [{ at, statusCode: 200, durationMs: 84, response: 'ok', error: null }],
    createdAt: at,
    updatedAt: at,
  },
  ProofOfDelivery: proofOfDelivery,
  Depot: {
    ...ids(DEPOT_ID),
    name: 'Chicago Hub',
    address: '400 W Lake St, Chicago, IL',
    city: 'Chicago',
    timeZone: 'America/Chicago',
    createdAt: created,
    updatedAt: created,
  },
  Run: run,
  Pickup: pickup,
  StatementAdjustment: {
    ...ids('665f1c2ab4d3e8a1c0ffee0d'),
    accountId: ACCOUNT_ID,
    month: '2026-05',
    kind: 'credit',
    amount: -500,
    currency: 'USD',
    description: 'Late delivery',
    createdAt: at,
  },
  StatementPayment: {
    ...ids('665f1c2ab4d3e8a1c0ffee0e'),
    accountId: ACCOUNT_ID,
    month: '2026-05',
    amount: 1250,
    currency: 'USD',
    receivedAt: '2026-06-03',
    reference: 'Bank transfer 0042',
    createdAt: at,
  },
  Statement: {
    accountId: ACCOUNT_ID,
    accountName: 'Northwind Books',
    month: '2026-05',
    currency: 'USD',
    parcels: [
      {
        parcelId: PARCEL_ID,
        trackingNumber: EXAMPLE_TRACKING_NUMBER,
        bookedAt: created,
        serviceType: 'Standard',
        recipientName: 'Jane Smith',
        priceAmount: 2599,
        currency: 'USD',
      },
    ],
    adjustments: [
      {
        id: '665f1c2ab4d3e8a1c0ffee0d',
        kind: 'credit',
        amount: -500,
        note: 'Late delivery',
        createdAt: at,
      },
    ],
    payments: [
      {
        id: '665f1c2ab4d3e8a1c0ffee0e',
        amount: 1000,
        date: '2026-06-03',
        note: 'Bank transfer',
        createdAt: at,
      },
    ],
    parcelsAmount: 2599,
    adjustmentsAmount: -500,
    totalAmount: 2099,
    paidAmount: 1000,
    outstandingAmount: 1099,
    delivered: 1,
    firstAttemptRate: 1,
    onTimeRate: 1,
  },
  Eta: ETA_EXAMPLE,
  DeliveryPerformance: {
    rows: [
      {
        key: '2026-05-06',
        delivered: 40,
        firstAttemptRate: 0.9,
        onTimeRate: 0.95,
        failedAttempts: 5,
        failedByReason: { recipient_unavailable: 4, address_not_found: 1 },
        averageStopsPerRun: 11.25,
      },
    ],
  },
  ScanResult: { event: parcelEvent, parcel },
  ParcelImportResult: {
    imported: 2,
    rows: 2,
    dryRun: false,
    errors: [],
    truncated: false,
    trackingNumbers: [EXAMPLE_TRACKING_NUMBER, 'SWX123456799'],
    created: 2,
    updated: 0,
    unchanged: 0,
    updatedTrackingNumbers: [],
  },
  ParcelImportErrors: {
    error: 'The file has errors: nothing was imported',
    message: 'The file has errors: nothing was imported',
    code: 'validation_failed',
    imported: 0,
    rows: 1,
    dryRun: false,
    errors: [{ row: 2, field: 'recipientName', message: 'Recipient name is required' }],
    truncated: false,
    trackingNumbers: [],
    created: 0,
    updated: 0,
    unchanged: 0,
    updatedTrackingNumbers: [],
  },
  NotificationTemplate: {
    id: 'status-update',
    type: 'Status Update',
    language: 'en',
    translated: true,
    subject: 'Update on {{trackingNumber}}',
    text: 'Your parcel {{trackingNumber}} is now {{status}}.',
    html: '',
    customized: true,
    updatedAt: at,
  },
  Money: { amount: 999, currency: 'USD' },
  Quote: quote,
  QuoteExpired: {
    error: 'This quote has expired: book with the new quote',
    message: 'This quote has expired: book with the new quote',
    code: 'quote_expired',
    details: { quoteId: ['This quote has expired: `quote` is today’s price for the same parcel'] },
    quote,
  },
  RateCard: {
    currency: 'USD',
    volumetricDivisor: 5000,
    fuelSurchargePercent: 0,
    remoteSurchargeAmount: 1500,
    remoteAreas: [{ country: 'US', postcodePrefixes: ['995', '996'] }],
    zones: [{ code: 'domestic', name: 'United States', countries: ['US'], postcodePrefixes: [] }],
    prices: [
      { zone: 'domestic', serviceType: 'Standard', maxWeightKg: 1, priceAmount: 999 },
      { zone: 'domestic', serviceType: 'Premium', maxWeightKg: 1, priceAmount: 1999 },
    ],
    accountDiscounts: [{ accountId: '665f1c2ab4d3e8a1c0ffee10', discountPercent: 10 }],
    updatedAt: at,
  },
  NotificationSettings: {
    rules: [
      { status: 'Out for Delivery', enabled: true, template: 'Status Update' },
      { status: 'Delivered', enabled: true, template: 'Delivery Confirmation' },
    ],
    dayBefore: { enabled: true, template: 'Delivery Reminder' },
    texts: { outForDelivery: true, failed: true, delivered: false, dayBefore: true },
    updatedAt: at,
  },
  AuditEntry: {
    ...ids('665f1c2ab4d3e8a1c0ffee0c'),
    at,
    actor: { id: USER_ID, username: 'dispatch', role: 'staff' },
    address: '203.0.113.7',
    via: 'api',
    action: 'update',
    entity: 'parcel',
    entityId: PARCEL_ID,
    label: EXAMPLE_TRACKING_NUMBER,
    parcelId: PARCEL_ID,
    changes: [{ field: 'priority', before: 'Standard', after: 'High' }],
  },
};

const deliveryPreferences = {
  instructions: 'Ring twice; the side gate is open',
  safePlace: 'porch',
  safePlaceOther: null,
  requestedDate: null,
  holdAtDepot: false,
  updatedAt: at,
};

const parcelRef = { id: PARCEL_ID, trackingNumber: EXAMPLE_TRACKING_NUMBER };
const { events: _events, ...parcelWithoutEvents } = parcel;

/** The `data` of each webhook event type, as the server sends it. */
export const WEBHOOK_DATA_EXAMPLES: Record<string, unknown> = {
  'parcel.created': { parcel: { ...parcel, status: 'Pending', events: [] } },
  'parcel.updated': { parcel },
  'parcel.deleted': { parcel },
  'parcel.status_changed': { parcel, previousStatus: 'Pending' },
  'parcel.imported': {
    count: 2,
    trackingNumbers: [EXAMPLE_TRACKING_NUMBER, 'SWX123456799'],
    updatedTrackingNumbers: [],
  },
  'parcel.delivered': {
    parcel: { ...parcelRef, status: 'Delivered' },
    proofOfDelivery,
    proofOfDeliveryIds: [PROOF_ID],
  },
  'parcel.delivery_preferences_updated': {
    parcel: { ...parcelRef, status: 'Out for Delivery' },
    deliveryPreferences: deliveryPreferences,
  },
  'parcel.eta_updated': {
    parcel: { ...parcelRef, status: 'Out for Delivery' },
    eta: ETA_EXAMPLE,
  },
  'parcel.scanned': { parcel: parcelWithoutEvents, event: parcelEvent },
  'parcel.delivery_failed': {
    parcel: { ...parcelRef, status: 'Failed' },
    event: {
      ...parcelEvent,
      status: 'Failed Delivery',
      reason: 'recipient_unavailable',
      nextAttemptDate: '2026-05-05',
    },
    reason: 'recipient_unavailable',
    nextAttemptDate: '2026-05-05',
  },
  'tracking_event.created': { event: parcelEvent, parcel: { ...parcelRef, status: 'In Transit' } },
  'tracking_event.updated': { event: parcelEvent, parcel: { ...parcelRef, status: 'In Transit' } },
  'tracking_event.deleted': { event: parcelEvent, parcel: { ...parcelRef, status: 'In Transit' } },
  'notification.sent': { notification },
  'pickup.scheduled': { pickup },
  'pickup.cancelled': { pickup: { ...pickup, status: 'cancelled', cancelledAt: at } },
  'pickup.completed': {
    pickup: { ...pickup, status: 'completed', collectedCount: 1, completedAt: at },
  },
  'pickup.missed': { pickup: { ...pickup, status: 'missed', missedReason: 'not_ready' } },
  'notification.failed': {
    notification: {
      ...notification,
      status: 'failed',
      emailResult: { messageId: null, error: '550 Mailbox unavailable', sentAt: null, attempts: 3 },
    },
  },
};

export const EXAMPLE_IDS = {
  pickup: PICKUP_ID,
  parcel: PARCEL_ID,
  event: EVENT_ID,
  depot: DEPOT_ID,
  user: USER_ID,
  run: RUN_ID,
  account: ACCOUNT_ID,
};

/** A depot as a request gives it (POST and PUT /api/depots). */
export const DEPOT_EXAMPLE = {
  name: 'Chicago Hub',
  address: '400 W Lake St, Chicago, IL',
  city: 'Chicago',
  timeZone: 'America/Chicago',
};
