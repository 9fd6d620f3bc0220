/** The roles, apart from the schemas that use them, so the dashboard's menus check them without zod. */
export const USER_ROLES = ['admin', 'staff', 'courier', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * A shipper account's user (and, as they act, the account's API keys): outside the staff's
 * ranks, so every staff check refuses it, naming the staff role it needs.
 */
export const SHIPPER_ROLE = 'shipper';
export type AnyRole = UserRole | typeof SHIPPER_ROLE;

// viewer reads; courier also scans parcels and records delivery attempts; staff also runs parcels,
// events, e-mails and receipts; admin also manages users, depots, templates, settings, API keys
// and webhooks.
const ROLE_RANK: Record<UserRole, number> = { viewer: 0, courier: 1, staff: 2, admin: 3 };

export function hasRole(user: { role: AnyRole } | null | undefined, needed: UserRole): boolean {
  return !!user && (ROLE_RANK[user.role as UserRole] ?? -1) >= ROLE_RANK[needed];
}
