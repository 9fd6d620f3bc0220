import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { LogoutSchema } from '~/schemas/auth';
import { invalidForm } from '~/lib/form-reply.server';
import { getSessionUser, getUserId, LOGIN_PATH, PORTAL_SIGN_IN } from '~/http/auth.server';
import { destroySession, getSession } from '~/http/session.server';
import { readFormData } from '~/lib/form.server';

// Signing out only happens through a POST form, so a link or prefetch cannot sign anyone out.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await getUserId(request);
  return redirect(userId ? '/dashboard' : LOGIN_PATH);
}

export async function action({ request }: ActionFunctionArgs) {
  // A POST without a form body (a script's plain request), or with one no page sends, signs out
  // all the same.
  const formData = await readFormData(request).catch(() => new FormData());
  const submission = parseWithZod(formData, { schema: LogoutSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const session = await getSession(request);
  // A shipper goes back to the portal's sign-in, staff to theirs.
  const user = await getSessionUser(request);
  return redirect(user?.account ? PORTAL_SIGN_IN : LOGIN_PATH, {
    headers: { 'Set-Cookie': await destroySession(session, request) },
  });
}
