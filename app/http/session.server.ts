import { createSessionStorage, type Session } from '@remix-run/node';
import {
  createSessionRecord,
  deleteSessionRecord,
  readSessionRecord,
  updateSessionRecord,
  USER_SESSION_KEY,
} from '~/models/session.server';
import { isSecureRequest, secrets } from '~/lib/cookies.server';

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
    return createSessionRecord(data, expiresAt(expires));
  },
  async readData(id) {
    return readSessionRecord(id);
  },
  async updateData(id, data, expires) {
    await updateSessionRecord(id, data, expiresAt(expires));
  },
  async deleteData(id) {
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
