import { json, redirect } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import {
  authenticateApiKey,
  looksLikeApiKey,
  type ApiKeyCredential,
} from '~/models/api-key.server';
import { isAccountActive } from '~/models/account.server';
import { SHIPPER_ROLE } from '~/schemas/roles';
import type { AccountScope } from '~/lib/tenancy.server';
import type { ApiKeyScope } from '~/schemas/integrations';
import { findUserIdByToken } from '~/models/api-token.server';
import { USER_SESSION_KEY } from '~/models/session.server';
import {
  getUserById,
  hasRole,
  verifyLogin,
  type PublicUser,
  type UserRole,
} from '~/models/user.server';
import { LoginSchema } from '~/schemas/auth';
import { safeRedirect } from '~/utils/safe-redirect';
import { ApiError, bearerChallenge, noteRateLimit } from '~/http/api.server';
import { env } from '~/lib/env.server';
import { noteRequestUser } from '~/lib/logger.server';
import { countLoginFailure } from '~/lib/metrics.server';
import { addressKey, RateLimit, rateLimitHeaders } from '~/lib/rate-limit.server';
import { getSession } from './session.server';

export { USER_SESSION_KEY } from '~/models/session.server';
export const LOGIN_PATH = '/management/access';

const loginWindowMs = env.LOGIN_WINDOW_MINUTES * 60 * 1000;

/**
 * Failed sign-ins within the window: LOGIN_MAX_FAILURES for one username from one address (a
 * person's typos lock only that pair); four times that for one username from anywhere (guessing
 * spread over many addresses); twenty times that from one address across usernames, so that an
 * office behind one address is not locked out by one colleague.
 */
export const loginFailures = {
  userAddress: new RateLimit('login-user-address', env.LOGIN_MAX_FAILURES, loginWindowMs),
  user: new RateLimit('login-user', env.LOGIN_MAX_FAILURES * 4, loginWindowMs),
  address: new RateLimit('login-address', env.LOGIN_MAX_FAILURES * 20, loginWindowMs, {
    perAddress: true,
  }),
  async clear() {
    await Promise.all([this.userAddress.clear(), this.user.clear(), this.address.clear()]);
  },
};

/** The key of one username's failures from one client (an IPv6 client by its /64). */
export function userAddressKey(username: string, address: string) {
  return `${username.toLowerCase()}|${addressKey(address)}`;
}

export class LoginError extends Error {
  constructor(
    readonly kind: 'invalid' | 'locked' | 'validation',
    message: string,
    readonly retryAfterSeconds = 0,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export const INVALID_CREDENTIALS = 'Invalid credentials. Please try again.';
export const LOGIN_FAILED = 'Login failed. Please check your credentials and try again.';

export function lockedMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

/**
 * Checks credentials with the per-username and per-address failure limits. Shared by the
 * login page (through remix-auth) and POST /api/auth/login.
 */
export async function checkCredentials(input: unknown, address: string): Promise<PublicUser> {
  const parsed = LoginSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
    throw new LoginError('validation', 'Username and password are required', 0, fieldErrors);
  }
  const { username, password } = parsed.data;
  const user = username.toLowerCase();
  const checks = [
    { limit: loginFailures.userAddress, key: userAddressKey(user, address) },
    { limit: loginFailures.user, key: user },
    { limit: loginFailures.address, key: address },
  ];
  // Every attempt is counted as a failure before its password is checked: the count is one atomic
  // increment per limit, so of any number of attempts at once no more than a limit allows get as
  // far as the check. An attempt refused gives its counts back (it checked nothing), and a
  // success gives them back and clears the failures of this username from this address.
  const counted = await Promise.all(checks.map((c) => c.limit.hit(c.key)));
  const blocked = counted.find((r) => !r.allowed);
  const giveBack = () => Promise.all(checks.map((c) => c.limit.refund(c.key)));
  if (blocked) {
    await giveBack();
    countLoginFailure('locked');
    throw new LoginError(
      'locked',
      lockedMessage(blocked.retryAfterSeconds),
      blocked.retryAfterSeconds,
    );
  }

  const signedIn = await verifyLogin(username, password);
  if (!signedIn) {
    countLoginFailure('invalid');
    throw new LoginError('invalid', INVALID_CREDENTIALS);
  }
  await giveBack();
  await loginFailures.userAddress.reset(checks[0]!.key);
  noteRequestUser(signedIn.id);
  return signedIn;
}

// remix-auth hands the strategy a copy of the request, so the client's address travels in a
// header that we set here (overwriting anything the client sent under that name).
const ADDRESS_HEADER = 'x-courier-login-address';

export const authenticator = new Authenticator<PublicUser>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const address = request.headers.get(ADDRESS_HEADER) ?? 'unknown';
    return checkCredentials(
      { username: form.get('username'), password: form.get('password') },
      address,
    );
  }),
  'form',
);

/** Signs in with the form strategy; throws LoginError on failure. */
export function authenticateForm(request: Request, address: string): Promise<PublicUser> {
  const headers = new Headers(request.headers);
  headers.set(ADDRESS_HEADER, address);
  return authenticator.authenticate('form', new Request(request, { headers }));
}

export async function getUserId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  const userId = session.get(USER_SESSION_KEY);
  return typeof userId === 'string' ? userId : null;
}

export async function getSessionUser(request: Request): Promise<PublicUser | null> {
  const userId = await getUserId(request);
  if (!userId) return null;
  const user = await activeUser(userId);
  if (user) noteRequestUser(user.id);
  return user;
}

/** An enabled user, and for a shipper one whose account is not suspended; else null. */
async function activeUser(userId: string): Promise<PublicUser | null> {
  const user = await getUserById(userId);
  if (user?.account && !(await isAccountActive(user.account.accountId))) return null;
  return user;
}

/**
 * The longest address the sign-in page is asked to come back to: a longer one (a query no page
 * makes) would make a Location header that proxies and clients refuse; the page's path alone is
 * used instead, or the dashboard.
 */
const MAX_REDIRECT_LENGTH = 2000;

export function loginRedirectUrl(
  request: Request,
  { signIn = LOGIN_PATH, home = '/dashboard' }: { signIn?: string; home?: string } = {},
) {
  const url = new URL(request.url);
  const target = [url.pathname + url.search, url.pathname].find(
    (candidate) => candidate.length <= MAX_REDIRECT_LENGTH,
  );
  const redirectTo = safeRedirect(target, home);
  return `${signIn}?${new URLSearchParams({ redirectTo })}`;
}

/** A user of the courier's own: any role but a shipper account's. */
export type StaffUser = PublicUser & { role: UserRole };
export const STAFF_ONLY =
  'This needs a staff role (viewer, courier, staff or admin): shippers sign in at /account';

export function isStaff(user: PublicUser): user is StaffUser {
  return user.role !== SHIPPER_ROLE && !user.account;
}

/** The shipper portal's sign-in page. */
export const PORTAL_SIGN_IN = '/account/sign-in';

/** A shipper signed in to the portal: the account they act for is always there. */
export type ShipperUser = PublicUser & { account: AccountScope };

/**
 * For the portal's pages: the signed-in shipper, or a redirect to the portal's sign-in that comes
 * back here. A staff session does not sign anyone in to the portal.
 */
export async function requireShipper(request: Request): Promise<ShipperUser> {
  const user = await getSessionUser(request);
  if (!user?.account)
    throw redirect(loginRedirectUrl(request, { signIn: PORTAL_SIGN_IN, home: '/account' }));
  return user as ShipperUser;
}

export const ACCOUNT_ADMIN_ONLY = "This needs the account's admin";

/** Whether a shipper is their account's admin (invites users, makes keys and webhooks). */
export function isAccountAdmin(user: PublicUser): boolean {
  return !!user.account && user.accountRole === 'admin';
}

/** For the portal's pages that change the account's users, keys or webhooks: its admins only. */
export async function requireAccountAdmin(request: Request): Promise<ShipperUser> {
  const user = await requireShipper(request);
  if (!isAccountAdmin(user)) throw json({ message: ACCOUNT_ADMIN_ONLY }, { status: 403 });
  return user;
}

/** Where a user changes their own password (and must, after a temporary one). */
export const ACCOUNT_PATH = '/dashboard/account';

/**
 * For staff pages: the signed-in user, or a redirect to the login page that comes back here. A
 * user still on a temporary password is sent to change it first.
 */
export async function requireUser(request: Request): Promise<StaffUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(loginRedirectUrl(request));
  if (!isStaff(user)) throw json({ message: STAFF_ONLY }, { status: 403 });
  if (user.mustChangePassword && new URL(request.url).pathname !== ACCOUNT_PATH)
    throw redirect(ACCOUNT_PATH);
  return user;
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1]! : null;
}

/**
 * Who made an API request: `key:<id>` for an API key, `user:<id>` for a login token or the staff
 * session. Per-credential state (idempotency keys) is kept under this name.
 */
const credentials = new WeakMap<Request, string>();

export function apiCredential(request: Request): string | null {
  return credentials.get(request) ?? null;
}

/** The scopes of the API key a request was made with (none for a token or the session). */
const keyScopes = new WeakMap<Request, ApiKeyScope[]>();

/**
 * Requests per credential (an API key, or a user's tokens and session together) per minute,
 * shared by every app process through the database. Made at the first request, so that the
 * limit is the one in force then.
 */
let apiLimiter: RateLimit | undefined;

export const API_RATE_LIMITED = 'Too many API requests for this credential. Wait and try again.';

/**
 * Counts one request for `credential`; 429 with Retry-After and RateLimit-* past the limit. The
 * answer, whatever it is, says what is left (apiRoute adds the RateLimit-* headers).
 */
async function countApiRequest(request: Request, credential: string) {
  apiLimiter ??= new RateLimit('api', env.RATE_LIMIT_API_PER_MINUTE, 60_000);
  const limit = await apiLimiter.hit(credential);
  noteRateLimit(request, limit);
  if (!limit.allowed)
    throw new ApiError(429, API_RATE_LIMITED, undefined, { headers: rateLimitHeaders(limit) });
}

/** Who made the request, counted against that credential's budget. */
async function identify(request: Request, credential: string) {
  credentials.set(request, credential);
  await countApiRequest(request, credential);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const READ_ONLY_KEY = 'This API key has the read scope only: changes need the write scope';
export const BEARER_ONLY =
  'Send a token from POST /api/auth/login or an API key as Authorization: Bearer <token>';
export const PASSWORD_CHANGE_REQUIRED =
  'This account has a temporary password: change it with POST /api/auth/password {currentPassword, newPassword} first';
export const ADMIN_SCOPE_NEEDED =
  'Users, API keys and webhooks need an API key with the admin scope';

/**
 * For non-public API routes: a Bearer token (from login, or a long-lived API key) or, without an
 * Authorization header, the staff session cookie; else 401 JSON. Any other Authorization (Basic,
 * a bare `Bearer`) is a 401 too, never a reason to fall back to the cookie. A key without the
 * `write` scope gets 403 on anything but a read. Each credential has RATE_LIMIT_API_PER_MINUTE
 * requests a minute, else 429. A user still on a temporary password may only change it (and sign
 * out, `allowTemporaryPassword`): 403 `password_change_required` for anything else.
 */
export async function requireApiUser(
  request: Request,
  { allowTemporaryPassword = false }: { allowTemporaryPassword?: boolean } = {},
): Promise<PublicUser> {
  const user = await authenticateApiRequest(request);
  noteRequestUser(user.id);
  if (user.mustChangePassword && !allowTemporaryPassword && !keyScopes.has(request))
    throw new ApiError(403, PASSWORD_CHANGE_REQUIRED, undefined, {
      code: 'password_change_required',
    });
  return user;
}

/** A bearer credential that is not (or no longer) valid: 401 saying so in WWW-Authenticate. */
function invalidToken(message: string) {
  return new ApiError(401, message, undefined, {
    headers: { 'WWW-Authenticate': bearerChallenge('invalid_token', message) },
  });
}

/**
 * Who a key acts as: a company key as the admin who made it; an account's key as the account
 * itself (the shipper role, within the account's scope), and as no one once the account is
 * suspended.
 */
async function keyPrincipal(key: ApiKeyCredential): Promise<PublicUser | null> {
  if (!key.account) return getUserById(key.userId);
  if (!(await isAccountActive(key.account.accountId))) return null;
  return {
    id: key.id,
    _id: key.id,
    username: key.prefix,
    name: key.name,
    email: '',
    role: SHIPPER_ROLE,
    disabled: false,
    mustChangePassword: false,
    createdAt: null,
    account: key.account,
  };
}

async function authenticateApiRequest(request: Request): Promise<PublicUser> {
  if (request.headers.has('authorization')) {
    const token = bearerToken(request);
    if (!token) throw new ApiError(401, BEARER_ONLY);
    if (looksLikeApiKey(token)) {
      const key = await authenticateApiKey(token);
      const user = key ? await keyPrincipal(key) : null;
      if (!key || !user) throw invalidToken('Invalid or revoked API key');
      await identify(request, `key:${key.id}`);
      keyScopes.set(request, key.scopes);
      if (!SAFE_METHODS.has(request.method) && !key.scopes.includes('write'))
        throw new ApiError(403, READ_ONLY_KEY);
      return user;
    }
    const userId = await findUserIdByToken(token);
    const user = userId ? await activeUser(userId) : null;
    if (!user) throw invalidToken('Invalid or expired token');
    await identify(request, `user:${user.id}`);
    return user;
  }
  const user = await getSessionUser(request);
  if (!user) throw new ApiError(401, 'Authentication required');
  await identify(request, `user:${user.id}`);
  return user;
}

/** 403 for a request made with an API key without the admin scope (after requireApiUser). */
export function requireAdminScope(request: Request) {
  const scopes = keyScopes.get(request);
  if (scopes && !scopes.includes('admin')) throw new ApiError(403, ADMIN_SCOPE_NEEDED);
}

/** Whether the API request was made with an API key (after requireApiUser). */
export function madeWithApiKey(request: Request): boolean {
  return keyScopes.has(request);
}

/**
 * The credential a request was made with, for a change that ends a user's others (a password
 * change): its login token, else its session. An API key is neither.
 */
export async function requestCredential(
  request: Request,
): Promise<{ token?: string; sessionId?: string }> {
  const token = bearerToken(request);
  if (token) return looksLikeApiKey(token) ? {} : { token };
  const session = await getSession(request);
  return session.id ? { sessionId: session.id } : {};
}

export { bearerToken };

/** 403 unless the user has at least the `needed` role; the message names the role. */
export function requireRole(user: PublicUser, needed: UserRole, kind: 'api' | 'page' = 'api') {
  if (hasRole(user, needed)) return;
  const message = `This needs the ${needed} role`;
  if (kind === 'api') throw new ApiError(403, message);
  throw json({ message }, { status: 403 });
}

export const OFFICE_ONLY = 'This page is for viewers, staff and admins: couriers work from Scan';
/** What the API answers a courier who asks for the office's figures. */
export const OFFICE_FIGURES_ONLY =
  "The office's figures are for viewers, staff and admins: couriers work from Scan";

/**
 * For the office's pages (receipts, e-mails to customers): the signed-in user, unless a courier
 * (403). Couriers work at the scan station and the door; viewers read these pages.
 */
export async function requireOfficeUser(request: Request): Promise<StaffUser> {
  const user = await requireUser(request);
  if (user.role === 'courier') throw json({ message: OFFICE_ONLY }, { status: 403 });
  return user;
}

/** For staff pages and actions: the signed-in user with at least `needed`, else 403 naming it. */
export async function requireUserWithRole(request: Request, needed: UserRole): Promise<StaffUser> {
  const user = await requireUser(request);
  requireRole(user, needed, 'page');
  return user;
}
