import { randomBytes } from 'node:crypto';
import {
  emailInUse,
  findUserByEmail,
  getAccess,
  insertShipperUser,
  listAccountUsers,
  setAccessNonce,
  consumeAccess,
  type PublicUser,
} from '~/models/user.server';
import { getAccount } from '~/models/account.server';
import { accountAccessEmail } from '~/emails/account-access.server';
import { publicCompanyInfo } from '~/lib/env.server';
import { signToken, verifyToken } from '~/lib/cookies.server';
import { publicUrl } from '~/lib/urls.server';
import { ConflictError, NotFoundError } from '~/lib/errors.server';
import type { AccountUserInviteInput } from '~/schemas/account';
import { auditRecord, type Actor } from './audit.server';
import { enqueueEmail, type EmailKind } from './email-queue.server';
import { messageIdFor, sendMail } from './mailer.server';
import { endCredentials } from './users.server';

/**
 * A shipper account's users: invited by e-mail (by staff or the account's admin), they choose
 * their password through a signed link that works once, for 7 days; a reset sends a new link
 * the same way. The link is `<user id>.<expiry>.<HMAC of both and a nonce stored on the user>`:
 * using it, or opening a newer one, clears the nonce, so an old link says it was used.
 */
export const ACCESS_EMAIL = 'account.access';
export const ACCESS_LINK_DAYS = 7;
const PURPOSE = 'account-access';
export const EMAIL_IN_USE = 'This e-mail address is already in use';

function accessToken(userId: string, expires: Date, nonce: string) {
  const exp = String(expires.getTime());
  return `${userId}.${exp}.${signToken(PURPOSE, `${userId}.${exp}.${nonce}`)}`;
}

/** Opens a new access link for the user and e-mails it. */
async function sendAccess(user: PublicUser, kind: 'invite' | 'reset') {
  const nonce = randomBytes(16).toString('base64url');
  const expires = new Date(Date.now() + ACCESS_LINK_DAYS * 86_400_000);
  await setAccessNonce(user.id, nonce, expires);
  await enqueueEmail({ kind: ACCESS_EMAIL, userId: user.id, access: kind });
  return { nonce, expires };
}

/** Invites a user to the account (409 when the address is anyone's already). */
export async function inviteAccountUser(
  accountId: string,
  input: AccountUserInviteInput,
  actor: Actor,
): Promise<PublicUser> {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  if (await emailInUse(input.email)) throw new ConflictError(EMAIL_IN_USE, { code: 'conflict' });
  const first = (await listAccountUsers(accountId)).length === 0;
  const user = await insertShipperUser({
    accountId,
    accountRole: input.accountRole ?? (first ? 'admin' : 'member'),
    name: input.name,
    email: input.email,
    accessNonce: randomBytes(16).toString('base64url'),
    accessExpires: new Date(),
  });
  await sendAccess(user, 'invite');
  await auditRecord(actor, 'create', 'user', {
    label: `${account.name}: ${user.email}`,
    after: user,
  });
  return user;
}

/**
 * A new link for whoever asks with a shipper's address (a reset, or an invitation that ran
 * out); nothing happens, and nothing is said, for an address that is not a shipper's.
 */
export async function requestAccess(email: string): Promise<void> {
  const user = await findUserByEmail(email);
  if (!user?.account || user.disabled) return;
  await sendAccess(user, 'reset');
}

export type AccessCheck =
  { state: 'valid'; user: PublicUser; nonce: string } | { state: 'expired' | 'used' | 'invalid' };

/** What a link is: valid (for whom), expired, already used (or replaced), or not one of ours. */
export async function checkAccessToken(token: string, now = new Date()): Promise<AccessCheck> {
  const [userId, exp, signature] = token.split('.');
  if (!userId || !exp || !signature || !/^\d{1,15}$/.test(exp)) return { state: 'invalid' };
  const access = await getAccess(userId);
  if (!access) return { state: 'invalid' };
  if (Number(exp) <= now.getTime()) return { state: 'expired' };
  if (!access.nonce || !verifyToken(PURPOSE, `${userId}.${exp}.${access.nonce}`, signature))
    return { state: 'used' };
  return { state: 'valid', user: access.user, nonce: access.nonce };
}

/** Sets the password through a link, once; every other session of the user ends. */
export async function chooseAccessPassword(token: string, password: string): Promise<AccessCheck> {
  const check = await checkAccessToken(token);
  if (check.state !== 'valid') return check;
  if (!(await consumeAccess(check.user.id, check.nonce, password))) return { state: 'used' };
  await endCredentials(check.user.id);
  return check;
}

/** The `account.access` kind of `email.send` job (registered in job-kinds.server.ts). */
export const accountAccessEmailKind: EmailKind = {
  send: async (payload, job) => {
    const access = await getAccess(String(payload.userId));
    if (!access?.nonce || !access.expires || !access.user.account) return;
    const account = await getAccount(access.user.account.accountId);
    const link = publicUrl(
      `/account/access/${accessToken(access.user.id, access.expires, access.nonce)}`,
    );
    await sendMail({
      to: access.user.email,
      ...accountAccessEmail(
        payload.access === 'invite' ? 'invite' : 'reset',
        { name: access.user.name, accountName: account?.name ?? '', link },
        publicCompanyInfo(),
      ),
      messageId: messageIdFor(`account-access-${job.id}`),
    });
  },
};
