import { issueApiToken } from '~/models/api-token.server';
import type { PublicUser } from '~/models/user.server';
import { USER_SESSION_KEY } from '~/http/auth.server';
import { sessionStorage } from '~/http/session.server';

/** A user signed in both ways: a bearer token for the API and a session cookie for the pages. */
export type SignedIn = { user: PublicUser; token: string; cookie: string };

/** The `Cookie` header value of a staff session for the user, as signing in would set it. */
export async function sessionCookie(userId: string): Promise<string> {
  const session = await sessionStorage.getSession();
  session.set(USER_SESSION_KEY, userId);
  return (await sessionStorage.commitSession(session)).split(';')[0]!;
}

/** The user with an API login token and a staff session. */
export async function signedIn(user: PublicUser): Promise<SignedIn> {
  return {
    user,
    token: (await issueApiToken(user.id)).token,
    cookie: await sessionCookie(user.id),
  };
}
