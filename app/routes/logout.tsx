import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { getUserId, LOGIN_PATH } from '~/services/auth.server';
import { destroySession, getSession } from '~/services/session.server';

// Signing out only happens through a POST form, so a link or prefetch cannot sign anyone out.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await getUserId(request);
  return redirect(userId ? '/dashboard' : LOGIN_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  return redirect(LOGIN_PATH, {
    headers: { 'Set-Cookie': await destroySession(session, request) },
  });
}
