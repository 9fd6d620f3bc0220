import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getDashboardStats } from '~/models/dashboard.server';
import { handleApi, methodNotAllowed } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    return json(await getDashboardStats());
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
