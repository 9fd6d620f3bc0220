import mongoose from 'mongoose';

/**
 * Tenancy, written once: who sees which parcels. Staff see the company's parcels and every
 * shipper account's; a shipper account (its users, its `sk_live_`/`sk_test_` keys) sees only
 * its own parcels of its own mode. Every read and change an account makes goes through
 * `scopeFilter`, so nothing reached by an account is found outside it: another account's parcel,
 * the company's own, or one of the other mode is simply not there (404, never 403).
 */

/** What an account acts within: its id and whether it works on live or test data. */
export type AccountScope = { accountId: string; livemode: boolean };

/** Whoever acts: a user signed in or a key, with the account it acts for (none for staff). */
export type Scoped = { user: { account?: AccountScope | null } } | null | undefined;

/** The account an actor acts for, or null for staff (and for changes made by no one). */
export function scopeOf(actor: Scoped): AccountScope | null {
  return actor?.user.account ?? null;
}

/** Staff lists show live parcels unless test ones are asked for; accounts see only their mode. */
export type ListMode = 'live' | 'test';

/**
 * The filter every query of parcels an actor makes adds: an account's parcels of its mode, or
 * for staff nothing (one parcel) or the list's mode (`mode`, live unless asked for).
 */
export function scopeFilter(
  scope: AccountScope | null,
  { mode }: { mode?: ListMode } = {},
): Record<string, unknown> {
  if (scope)
    return { accountId: new mongoose.Types.ObjectId(scope.accountId), livemode: scope.livemode };
  if (!mode) return {};
  return mode === 'test' ? { livemode: false } : { livemode: { $ne: false } };
}

/** What a record made by an actor belongs to: its account and mode, or the company's live data. */
export function ownedBy(scope: AccountScope | null) {
  return scope
    ? { accountId: new mongoose.Types.ObjectId(scope.accountId), livemode: scope.livemode }
    : {};
}
