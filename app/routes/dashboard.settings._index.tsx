import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { requireRole, requireUser } from '~/http/auth.server';

export async function loader({ request }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return redirect('/dashboard/settings/api-keys');
}
