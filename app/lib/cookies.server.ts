import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCookie, createCookieSessionStorage } from '@remix-run/node';
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

/** What signs the session and flash cookies and the tokens in e-mailed links. */
export const secrets = [loadSessionSecret()];

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

/**
 * Sets the Secure attribute when the request reached us over https: the request's URL says so, as
 * express decided from the connection or, from a trusted proxy only (TRUST_PROXY),
 * `X-Forwarded-Proto`.
 */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === 'https:';
}

/** Toasts travel in their own cookie, read once by the next page. */
export const flashStorage = createCookieSessionStorage({
  cookie: {
    name: '__flash',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets,
  },
});

/**
 * Which parcels this browser's recipient opened with their postcode in the last half hour, so the
 * tracking page can show them what they saved (signed; nothing is stored on the server).
 */
export const recipientCookie = createCookie('__recipient', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/track',
  maxAge: 30 * 60,
  secrets,
});
