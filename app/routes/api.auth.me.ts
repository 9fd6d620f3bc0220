import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { handleApi, methodNotAllowed } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => json({ user: await requireApiUser(request) }));
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
