import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { TemporaryPassword } from '~/components/users/temporary-password';
import { UserProfileFields } from '~/components/users/user-fields';
import { UserConflictError } from '~/models/user.server';
import { UserCreateSchema } from '~/schemas/user';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { addUser } from '~/services/users.server';
import { CancelAndSubmit } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor } from '~/components/ui/conform-fields';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  return null;
}

/**
 * Adds a user. With a password given, back to the list; without one, this page shows the
 * temporary password once (the answer to this POST is the only place it ever appears).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireUserWithRole(request, 'admin');
  const submission = parseWithZod(await readFormData(request), { schema: UserCreateSchema });
  const into = (reply: FormReply) => ({ reply, created: null });
  if (submission.status !== 'success')
    return invalidForm(submission, { hideFields: ['password'], into });
  try {
    const { user, temporaryPassword } = await addUser(submission.value, { user: admin, context });
    if (!temporaryPassword)
      return redirectWithToast(request, '/dashboard/users', {
        type: 'success',
        title: 'User added',
        description: user.username,
      });
    return json(
      { reply: null, created: { username: user.username, temporaryPassword } },
      { headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    if (!(error instanceof UserConflictError)) throw error;
    return invalidForm(submission, {
      hideFields: ['password'],
      fieldErrors: { username: [error.message] },
      status: 409,
      into,
    });
  }
}

export const meta: MetaFunction = () => [{ title: 'Add User · Users · Management dashboard' }];

export default function NewUserPage() {
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.reply,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: { role: 'staff' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UserCreateSchema }),
  });
  const busy = useIsPending({ state: 'submitting' });
  if (data?.created)
    return (
      <div className="mx-auto max-w-lg space-y-4">
        <h1 className="text-2xl font-bold text-gray-900">User added</h1>
        <TemporaryPassword
          username={data.created.username}
          password={data.created.temporaryPassword}
        />
        <Link to="/dashboard/users" className="btn-primary">
          Back to users
        </Link>
      </div>
    );
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Add User</h1>
      <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <InputFor label="Username" autoComplete="off" meta={fields.username} />
        <UserProfileFields fields={fields} />
        <InputFor
          label="Password (optional)"
          autoComplete="new-password"
          hint="Leave empty to get a temporary password, shown once, that the user changes at the first sign-in."
          meta={fields.password}
          type="password"
        />
        <CancelAndSubmit
          cancelTo="/dashboard/users"
          preventScrollReset={false}
          pending={busy}
          pendingLabel="Adding..."
        >
          Add User
        </CancelAndSubmit>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
