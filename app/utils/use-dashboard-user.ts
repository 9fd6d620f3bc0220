import { useRouteLoaderData } from '@remix-run/react';
import type { PublicUser } from '~/models/user.server';
import { hasRole } from '~/schemas/roles';

/** The signed-in user, as the dashboard layout loaded them. */
export function useDashboardUser(): Pick<PublicUser, 'id' | 'role' | 'username'> | null {
  return useRouteLoaderData<{ user: PublicUser }>('routes/dashboard')?.user ?? null;
}

/**
 * Whether to offer changes (staff and admins). Only what is shown: the server checks the role on
 * every action whatever the page offered.
 */
export function useCanEdit(): boolean {
  return hasRole(useDashboardUser(), 'staff');
}

/** Whether to offer scanning and recording deliveries (couriers and up); the server checks again. */
export function useCanDeliver(): boolean {
  return hasRole(useDashboardUser(), 'courier');
}
