import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { requireUser } from './auth.server';

/** Every dashboard page's layout: the signed-in user its header and tabs are drawn for. */
export async function dashboardLayoutLoader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ user });
}
