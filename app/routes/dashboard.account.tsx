import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { InputsFromTable, type InputSpec } from '~/components/ui/input-table';
import { PasswordChangeSchema, SignOutEverywhereSchema } from '~/schemas/user';
import { LOGIN_PATH, requestCredential, requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { destroySession, getSession } from '~/http/session.server';
import { changePassword, signOutEverywhere } from '~/services/users.server';
import { invalidForm } from '~/lib/form-reply.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ mustChangePassword: user.mustChangePassword, username: user.username });
}

/**
 * Every user, whatever the role, changes their own password here, which ends their other
 * sessions and login tokens; or signs out everywhere, this browser too.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const actor = { user, context };
  if (parseWithZod(formData, { schema: SignOutEverywhereSchema }).status === 'success') {
    await signOutEverywhere(actor);
    const session = await getSession(request);
    return redirectWithToast(
      request,
      LOGIN_PATH,
      { type: 'success', title: 'Signed out everywhere' },
      { headers: { 'Set-Cookie': await destroySession(session, request) } },
    );
  }
  const submission = parseWithZod(formData, { schema: PasswordChangeSchema });
  const hideFields = ['currentPassword', 'newPassword', 'confirmPassword'];
  if (submission.status !== 'success') return invalidForm(submission, { hideFields });
  if (!(await changePassword(submission.value, await requestCredential(request), actor))) {
    return invalidForm(submission, {
      hideFields,
      fieldErrors: { currentPassword: ['The current password is wrong'] },
    });
  }
  return redirectWithToast(request, '/dashboard', {
    type: 'success',
    title: 'Password changed',
  });
}

export const meta: MetaFunction = () => [{ title: 'Your account · Management dashboard' }];

const PASSWORD_INPUTS: Array<InputSpec<'currentPassword' | 'newPassword' | 'confirmPassword'>> = [
  {
    name: 'currentPassword',
    label: 'Current password',
    type: 'password',
    autoComplete: 'current-password',
  },
  {
    name: 'newPassword',
    label: 'New password',
    type: 'password',
    autoComplete: 'new-password',
    hint: 'At least 8 characters.',
  },
  {
    name: 'confirmPassword',
    label: 'Repeat new password',
    type: 'password',
    autoComplete: 'new-password',
  },
];

export default function AccountPage() {
  const { mustChangePassword, username } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    lastResult: useActionData<typeof action>(),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordChangeSchema }),
  });
  const submitting = useIsPending({ state: 'submitting' });
  const signingOut = useIsPending({
    state: 'submitting',
    formData: { intent: 'sign-out-everywhere' },
  });
  const busy = submitting && !signingOut;
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Your account</h1>
      <p className="text-gray-700">
        Signed in as <span className="font-semibold">{username}</span>.
      </p>
      {mustChangePassword ? (
        <p role="alert" className="rounded-md bg-yellow-50 p-3 text-yellow-900">
          You signed in with a temporary password. Choose your own password to continue.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
        <h2 className="text-lg font-semibold text-gray-900">Change password</h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        <InputsFromTable inputs={PASSWORD_INPUTS} of={fields} />
        <SubmitButton pending={busy} pendingLabel="Saving..." disabled={submitting}>
          Change password
        </SubmitButton>
      </Form>
      <Form method="post" className="card space-y-3 p-4" aria-labelledby="sign-out-everywhere">
        <h2 id="sign-out-everywhere" className="text-lg font-semibold text-gray-900">
          Sign out everywhere
        </h2>
        <p className="text-sm text-gray-700">
          Ends every session of yours, in this browser and all others, and every token from signing
          in to the API. API keys keep working.
        </p>
        <SubmitButton
          name="intent"
          value="sign-out-everywhere"
          className="btn-secondary"
          pending={signingOut}
          pendingLabel="Signing out..."
          disabled={submitting}
        >
          Sign out everywhere
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
