import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createCookieSessionStorage, type Session } from '@remix-run/node';
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

/** Sets the Secure attribute when the request reached us over https. */
export function isSecureRequest(request: Request): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return env.TRUST_PROXY === 'true' && request.headers.get('x-forwarded-proto') === 'https';
}

export const sessionStorage = createCookieSessionStorage({
  cookie: {
    name: '__session',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets,
    maxAge: 60 * 60 * 12,
  },
});

export function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get('Cookie'));
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
