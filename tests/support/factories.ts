import { createApiKey as storeApiKey } from '~/models/api-key.server';
import { insertAccount } from '~/models/account.server';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import { insertShipperUser, createUser as storeUser } from '~/models/user.server';
import { EMPTY_CONTACT, type ParcelCreateInput } from '~/schemas/parcel';
import type { UserRole } from '~/schemas/roles';
import type { ApiKeyScope } from '~/schemas/integrations';
import { addEvent } from '~/services/tracking-events.server';
import { env } from '~/lib/env.server';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import { sessionCookie, signedIn, type SignedIn } from './sign-in';

/**
 * The records integration tests start from, stored through the app's own models. Each call makes
 * a new one (a new username, a new tracking number), so tests in a file never share one unless
 * they mean to; `overrides` sets what a test looks at.
 */

let made = 0;

/** A user signed in both ways, and the API's bearer header for it. */
export type TestUser = SignedIn & { auth: { Authorization: string } };

export async function createUser(
  role: UserRole = 'staff',
  overrides: { username?: string; password?: string; name?: string; email?: string } = {},
): Promise<TestUser> {
  made += 1;
  const username = overrides.username ?? `${role}-${made}`;
  const user = await storeUser({
    password: `${username}-password`,
    ...overrides,
    username,
    role,
  });
  const session = await signedIn(user);
  return { ...session, auth: { Authorization: `Bearer ${session.token}` } };
}

export type UsersByRole = Record<UserRole, TestUser>;

/** One signed-in user for each role, by role. */
export async function createUsers<R extends UserRole>(
  roles: readonly R[],
  prefix = 'user',
): Promise<Record<R, TestUser>> {
  const users = {} as Record<R, TestUser>;
  for (const role of roles) {
    users[role] = await createUser(role, { username: `${prefix}-${role}` });
  }
  return users;
}

/** An API key with these scopes, made by `owner`, and its bearer header. */
export async function createApiKey(scopes: ApiKeyScope[], owner: { user: { id: string } }) {
  made += 1;
  const { apiKey, key } = await storeApiKey({ name: `Key ${made}`, scopes }, owner.user.id);
  return { apiKey, key, auth: { Authorization: `Bearer ${key}` } };
}

/** A shipper account (active unless `overrides` say otherwise). */
export async function createAccount(overrides: Record<string, unknown> = {}) {
  made += 1;
  const account = await insertAccount({
    name: `Shop ${made}`,
    email: `shop${made}@example.com`,
    phone: '',
    address: {
      address: `${made} Pickup Rd`,
      city: 'Portland',
      region: 'OR',
      postalCode: '97201',
      country: 'US',
    },
    language: 'en',
    ...overrides,
  });
  return account;
}

/** A shipper of the account (its admin or a member), signed in to the portal. */
export async function createShipper(
  account: { id: string },
  accountRole: 'admin' | 'member' = 'admin',
) {
  made += 1;
  const user = await insertShipperUser({
    accountId: account.id,
    accountRole,
    name: `Shipper ${made}`,
    email: `shipper${made}@shop.example`,
    accessNonce: 'unused',
    accessExpires: new Date(),
  });
  return { user, cookie: await sessionCookie(user.id) };
}

/** A key that acts for the account, live unless `mode` is 'test', and its bearer header. */
export async function createAccountKey(
  account: { id: string },
  owner: { user: { id: string } },
  {
    mode = 'live',
    scopes = ['read', 'write'],
  }: { mode?: 'live' | 'test'; scopes?: ApiKeyScope[] } = {},
) {
  made += 1;
  const { apiKey, key } = await storeApiKey(
    { name: `Account key ${made}`, scopes },
    owner.user.id,
    {
      accountId: account.id,
      livemode: mode === 'live',
    },
  );
  return { apiKey, key, auth: { Authorization: `Bearer ${key}` } };
}

/**
 * Staff, and two shipper accounts (made with `own` and `other`) with the bearer header of a live
 * key of each, which an admin made: what a test of one account's records against another's
 * starts from.
 */
export async function createTwoAccounts(
  own: Record<string, unknown> = {},
  other: Record<string, unknown> = {},
) {
  const admin = await createUser('admin');
  const staff = await createUser('staff');
  const account = await createAccount(own);
  const otherAccount = await createAccount(other);
  const key = (await createAccountKey(account, admin)).auth;
  const otherKey = (await createAccountKey(otherAccount, admin)).auth;
  return { staff, account, other: otherAccount, key, otherKey };
}

/** The instant a day's time (`HH:MM`) is at the company, in its zone. */
export const atCompanyTime = (day: string, time: string) =>
  zonedDateTimeToUtc(day, time, env.COMPANY_TIMEZONE);

/**
 * A parcel stored as it is given (no webhook, audit entry or e-mail), with a new tracking number
 * unless it is given one; `id` is its id as a string.
 */
export async function createParcel(overrides: Record<string, unknown> = {}) {
  const doc = await insertWithTrackingNumber((trackingNumber) =>
    Parcel.create({
      trackingNumber,
      sender: { name: 'Ann Sender', address: '1 Main St' },
      recipient: { name: 'Bob Recipient', address: '2 High St' },
      ...overrides,
    }),
  );
  return {
    ...(doc.toObject() as Record<string, unknown>),
    id: String(doc._id),
    trackingNumber: doc.trackingNumber,
  };
}

/**
 * A whole parcel as a form or the API hands it to the parcel service's `createParcel`: empty
 * contacts but the recipient's name and address, no destinations, 1 kg of no size, Standard.
 */
export function parcelInput(overrides: Partial<ParcelCreateInput> = {}): ParcelCreateInput {
  return {
    sender: EMPTY_CONTACT,
    recipient: { ...EMPTY_CONTACT, name: 'Bob Recipient', address: '2 High St' },
    destinations: [],
    weight: 1,
    dimensions: { length: 0, width: 0, height: 0 },
    serviceType: 'Standard',
    priority: 'Standard',
    ...overrides,
  } as ParcelCreateInput;
}

/**
 * A tracking event of `status` added to the parcel as the app adds one (the parcel's status
 * follows it), `at` the time it happened.
 */
export async function createEvent(
  parcelId: string,
  status = 'In Transit',
  { at, ...overrides }: { at?: string; location?: string; description?: string } = {},
) {
  const event = await addEvent(parcelId, {
    status,
    location: '',
    description: '',
    ...(at ? { timestamp: new Date(at) } : {}),
    ...overrides,
  } as Parameters<typeof addEvent>[1]);
  if (!event) throw new Error(`No parcel ${parcelId} to add an event to`);
  return event;
}

/**
 * `count` parcels stored a minute apart from the start of 2025, oldest first, for lists and
 * searches: parcel i is `${prefix}` and i in nine digits, sent by `Sender i` to `Recipient i` at
 * `i ${street}`, Pending; the oldest has the tracking number, names and status in `oldest`.
 */
export async function createParcelSeries(
  count: number,
  {
    prefix,
    street,
    oldest,
  }: {
    prefix: string;
    street: string;
    oldest: { trackingNumber: string; sender: string; recipient: string; status?: string };
  },
) {
  const start = Date.UTC(2025, 0, 1);
  await Parcel.insertMany(
    Array.from({ length: count }, (_, i) => ({
      trackingNumber: i === 0 ? oldest.trackingNumber : `${prefix}${String(i).padStart(9, '0')}`,
      sender: { name: i === 0 ? oldest.sender : `Sender ${i}`, email: 's@example.com' },
      recipient: {
        name: i === 0 ? oldest.recipient : `Recipient ${i}`,
        address: `${i} ${street}`,
        email: `r${i}@example.com`,
      },
      status: i === 0 ? (oldest.status ?? 'Pending') : 'Pending',
      createdAt: new Date(start + i * 60_000),
    })),
  );
}

/** The portal's Send a parcel form for a small parcel to Springfield, from the page's defaults. */
export function sendParcelForm(defaults: Record<string, string>) {
  return {
    ...defaults,
    recipientName: 'Ada Lovelace',
    recipientAddress: '12 Analytical Way',
    recipientPostalCode: '62701',
    recipientCountry: 'US',
    weight: '0.8',
    length: '20',
    width: '15',
    height: '10',
  };
}

/** The visitor's booking form (/book) filled in: who sends and who receives; the rest is the quote's. */
export const VISITOR_BOOKING = {
  senderName: 'Grace Hopper',
  senderEmail: 'grace@example.com',
  senderPhone: '+1 503 555 0100',
  senderAddress: '1 Harbor Rd',
  senderCity: 'Portland',
  recipientName: 'Ada Lovelace',
  recipientEmail: '',
  recipientPhone: '',
  recipientAddress: '12 Analytical Way',
  recipientCity: 'Springfield',
};
