import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useSearchParams } from '@remix-run/react';
import { pageTitle } from '~/components/public/page-meta';
import { HomeLogo } from '~/components/public/logo';
import { FormErrors } from '~/components/ui/field';
import { useCompany } from '~/utils/use-company';
import { LoginFormSchema } from '~/schemas/auth';
import {
  authenticateForm,
  getSessionUser,
  INVALID_CREDENTIALS,
  isStaff,
  LOGIN_FAILED,
  LoginError,
} from '~/http/auth.server';
import { createToastHeaders } from '~/lib/flash.server';
import { clientAddress } from '~/lib/rate-limit.server';
import { startUserSession } from '~/http/session.server';
import { safeRedirect } from '~/utils/safe-redirect';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { staffStyles } from '~/utils/stylesheets';
import { InputFor, PasswordFor } from '~/components/ui/conform-fields';

export { staffStyles as links };

export async function loader({ request }: LoaderFunctionArgs) {
  // A broken session or an unreachable database just shows the form.
  const user = await getSessionUser(request).catch(() => null);
  if (user && isStaff(user)) {
    const redirectTo = new URL(request.url).searchParams.get('redirectTo');
    throw redirect(safeRedirect(redirectTo, '/dashboard'));
  }
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The form strategy reads the body itself, so read a copy here.
  const submission = parseWithZod(await readFormData(request.clone()), { schema: LoginFormSchema });
  // Answers give the username back to the form, never the password.
  const hideFields = ['password'];
  if (submission.status !== 'success') return invalidForm(submission, { hideFields });
  const redirectTo = safeRedirect(submission.value.redirectTo, '/dashboard');

  try {
    const user = await authenticateForm(request, clientAddress(context));
    // A shipper signs in to the portal, never to the dashboard.
    if (!isStaff(user)) throw new LoginError('invalid', INVALID_CREDENTIALS);
    const headers = await createToastHeaders(request, {
      type: 'success',
      title: 'Login successful',
      description: 'Welcome to the management dashboard!',
    });
    headers.append('Set-Cookie', await startUserSession(request, user.id));
    return redirect(redirectTo, { headers });
  } catch (error) {
    if (error instanceof LoginError) {
      const locked = error.kind === 'locked';
      return invalidForm(submission, {
        formErrors: [error.message],
        fieldErrors: error.fieldErrors,
        hideFields,
        status: locked ? 429 : 400,
        headers: locked ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined,
      });
    }
    console.error('Sign-in failed unexpectedly:', error);
    return invalidForm(submission, { formErrors: [LOGIN_FAILED], hideFields, status: 500 });
  }
}

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Staff login') },
  { name: 'robots', content: 'noindex' },
];

export default function StaffLogin() {
  const company = useCompany();
  const [form, fields] = useForm({
    lastResult: useActionData<typeof action>(),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginFormSchema }),
  });
  const [searchParams] = useSearchParams();
  const submitting = useIsPending();
  const redirectTo = searchParams.get('redirectTo') ?? '/dashboard';

  return (
    <main className="flex flex-1 items-center justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-12">
      <div className="w-full max-w-md">
        <HomeLogo name={company.name} />
        <div className="card p-6 sm:p-8">
          <h1 className="text-2xl font-bold text-gray-900">Staff login</h1>
          <p className="mt-1 text-sm text-gray-600">Sign in to the management dashboard.</p>
          <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
            <input type="hidden" name={fields.redirectTo.name} value={redirectTo} />
            <FormErrors id={form.errorId} errors={form.errors} />
            <InputFor
              label="Username"
              meta={fields.username}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={100}
            />
            <PasswordFor
              label="Password"
              meta={fields.password}
              autoComplete="current-password"
              maxLength={200}
            />
            <SubmitButton
              className="btn-primary w-full"
              pending={submitting}
              pendingLabel="Signing in..."
            >
              Sign In
            </SubmitButton>
          </Form>
        </div>
        <p className="mt-6 text-center text-sm text-gray-600">
          <Link to="/" reloadDocument className="text-brand-700 hover:underline">
            Back to the website
          </Link>
        </p>
      </div>
    </main>
  );
}
