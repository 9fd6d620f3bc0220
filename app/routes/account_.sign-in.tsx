import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useSearchParams } from '@remix-run/react';
import { PortalCard } from '~/components/account/portal-card';
import { FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { ShipperSignInSchema } from '~/schemas/account';
import {
  authenticateForm,
  getSessionUser,
  INVALID_CREDENTIALS,
  LoginError,
} from '~/http/auth.server';
import { startUserSession } from '~/http/session.server';
import { invalidForm } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import { clientAddress } from '~/lib/rate-limit.server';
import { safeRedirect } from '~/utils/safe-redirect';
import { useIsPending } from '~/utils/use-is-pending';
import { staffStyles } from '~/utils/stylesheets';
import { InputFor, PasswordFor } from '~/components/ui/conform-fields';

export { staffStyles as links };

/**
 * The shipper portal's sign-in: the staff's form strategy and lockout, with the e-mail address
 * as the username. Staff credentials do not open the portal.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request).catch(() => null);
  if (user?.account) throw redirect('/account');
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request.clone()), {
    schema: ShipperSignInSchema,
  });
  const hideFields = ['password'];
  if (submission.status !== 'success') return invalidForm(submission, { hideFields });
  const form = new URLSearchParams({
    username: submission.value.email,
    password: submission.value.password,
  });
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/x-www-form-urlencoded');
  try {
    const user = await authenticateForm(
      new Request(request.url, { method: 'POST', headers, body: form }),
      clientAddress(context),
    );
    if (!user.account) throw new LoginError('invalid', INVALID_CREDENTIALS);
    const cookie = await startUserSession(request, user.id);
    return redirect(safeRedirect(submission.value.redirectTo, '/account'), {
      headers: { 'Set-Cookie': cookie },
    });
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    const locked = error.kind === 'locked';
    return invalidForm(submission, {
      formErrors: [error.message],
      hideFields,
      status: locked ? 429 : 400,
      headers: locked ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined,
    });
  }
}

export const meta: MetaFunction = () => [
  { title: 'Sign in to your shipping account' },
  { name: 'robots', content: 'noindex' },
];

export default function ShipperSignIn() {
  const [form, fields] = useForm({ lastResult: useActionData<typeof action>() });
  const [searchParams] = useSearchParams();
  const pending = useIsPending();
  return (
    <PortalCard title="Sign in to your shipping account">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <InputFor label="Email" meta={fields.email} type="email" autoComplete="username" required />
        <PasswordFor label="Password" meta={fields.password} autoComplete="current-password" />
        <SubmitButton className="btn-primary w-full" pending={pending}>
          Sign In
        </SubmitButton>
      </Form>
      <p className="text-sm">
        <Link to="/account/access" className="text-brand-700 hover:underline">
          Forgot your password, or your invitation ran out?
        </Link>
      </p>
    </PortalCard>
  );
}
