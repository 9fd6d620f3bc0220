import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCookieSessionStorage, createSessionStorage, type Session } from '@remix-run/node';
import {
  createSessionRecord,
  deleteSessionRecord,
  readSessionRecord,
  updateSessionRecord,
  USER_SESSION_KEY,
} from '~/models/session.server';
import { connectDb } from './db.server';
import { env } from './env.server';

function loadSessionSecret(): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  // Without a configured secret, keep a generated one beside the data so restarts keep sessions.
  const file = path.resolve(env.DATA_DIR, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(32).toString('hex');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

const secrets = [loadSessionSecret()];

/**
 * A capability token for links in e-mails (`purpose` keeps tokens for one use from working for
 * another): an HMAC of the value under the server's secret, so nothing that grants it is stored.
 */
export function signToken(purpose: string, value: string): string {
  return createHmac('sha256', secrets[0]!).update(`${purpose}:${value}`).digest('base64url');
}

export function verifyToken(purpose: string, value: string, token: string): boolean {
  const expected = Buffer.from(signToken(purpose, value));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Sets the Secure attribute when the request reached us over https. */
export function isSecureRequest(request: Request): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return env.TRUST_PROXY === 'true' && request.headers.get('x-forwarded-proto') === 'https';
}

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 12;

/**
 * Staff sessions live in MongoDB (see models/session.server.ts): the signed cookie holds only a
 * random id, so signing out, a password change or a disabled account ends a session everywhere.
 */
export const sessionStorage = createSessionStorage({
  cookie: {
    name: '__session',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets,
    maxAge: SESSION_MAX_AGE_SECONDS,
  },
  async createData(data, expires) {
    await connectDb();
    return createSessionRecord(data, expiresAt(expires));
  },
  async readData(id) {
    await connectDb();
    return readSessionRecord(id);
  },
  async updateData(id, data, expires) {
    await connectDb();
    await updateSessionRecord(id, data, expiresAt(expires));
  },
  async deleteData(id) {
    await connectDb();
    await deleteSessionRecord(id);
  },
});

function expiresAt(expires: Date | undefined) {
  return expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
}

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get('Cookie'));
}

/** A new session for a user who just signed in: a fresh id, never the one the browser had. */
export async function startUserSession(request: Request, userId: string): Promise<string> {
  const previous = await getSession(request);
  if (previous.id) await sessionStorage.destroySession(previous);
  const session = await sessionStorage.getSession();
  session.set(USER_SESSION_KEY, userId);
  return commitSession(session, request);
}

export function commitSession(session: Session, request: Request) {
  return sessionStorage.commitSession(session, { secure: isSecureRequest(request) });
}

export function destroySession(session: Session, request: Request) {
  return sessionStorage.destroySession(session, { secure: isSecureRequest(request) });
}

export const flashStorage = createCookieSessionStorage({
  cookie: {
    name: '__flash',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets,
  },
});
