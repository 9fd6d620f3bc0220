import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { RoleBadge } from '~/components/dashboard/dashboard-header';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { TemporaryPassword } from '~/components/users/temporary-password';
import { UserProfileFields } from '~/components/users/user-fields';
import { findUserById, UserConflictError } from '~/models/user.server';
import { UserEditFormSchema } from '~/schemas/user';
import { z } from '~/schemas/zod';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { resetUserPassword, setUserDisabled, updateUser } from '~/services/users.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

const UserActionSchema = z.discriminatedUnion('intent', [
  UserEditFormSchema,
  z.object({ intent: z.literal('disable') }),
  z.object({ intent: z.literal('enable') }),
  z.object({ intent: z.literal('reset-password') }),
]);

function notFound() {
  return json({ message: 'User not found' }, { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireUserWithRole(request, 'admin');
  const user = await findUserById(params.userId ?? '');
  if (!user) throw notFound();
  return json({ user, self: user.id === admin.id });
}

/**
 * Edits a user (name, e-mail, role), disables or enables them, or resets their password. The last
 * active admin cannot be demoted or disabled; disabling ends the user's sessions and tokens.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireUserWithRole(request, 'admin');
  const id = params.userId ?? '';
  const here = `/dashboard/users/${id}`;
  const submission = parseWithZod(await readFormData(request), { schema: UserActionSchema });
  const into = (reply: FormReply) => ({ reply, temporaryPassword: null });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const input = submission.value;
  const actor = { user: admin, context };
  try {
    if (input.intent === 'reset-password') {
      const password = await resetUserPassword(id, actor);
      if (!password) throw notFound();
      return json(
        { reply: null, temporaryPassword: password },
        { headers: { 'Cache-Control': 'no-store' } },
      );
    }
    const user =
      input.intent === 'update'
        ? await updateUser(id, { name: input.name, email: input.email, role: input.role }, actor)
        : await setUserDisabled(id, input.intent === 'disable', actor);
    if (!user) throw notFound();
    const title =
      input.intent === 'update'
        ? 'User updated'
        : input.intent === 'disable'
          ? 'User disabled'
          : 'User enabled';
    return redirectWithToast(request, here, { type: 'success', title, description: user.username });
  } catch (error) {
    if (!(error instanceof UserConflictError)) throw error;
    return invalidForm(submission, { formErrors: [error.message], status: 409, into });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.username ?? 'User'} · Users · Management dashboard` },
];

export default function UserPage() {
  const { user, self } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `user-${user.id}`,
    lastResult: data?.reply,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: { name: user.name, email: user.email, role: user.role },
  });
  const busy = useIsPending({ state: 'submitting' });
  const saving = useIsPending({ state: 'submitting', formData: { intent: 'update' } });
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <p>
        <Link to="/dashboard/users" className="text-brand-700 hover:underline">
          ← Users
        </Link>
      </p>
      <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold text-gray-900">
        {user.username}
        <RoleBadge role={user.role} />
        {user.disabled ? (
          <span className="text-base font-medium text-red-700">Disabled</span>
        ) : null}
      </h1>
      {data?.temporaryPassword ? (
        <TemporaryPassword username={user.username} password={data.temporaryPassword} />
      ) : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
        <input type="hidden" name="intent" value="update" />
        <UserProfileFields fields={fields} />
        <SubmitButton pending={saving} pendingLabel="Saving..." disabled={busy}>
          Save changes
        </SubmitButton>
      </Form>
      <div className="card flex flex-wrap gap-3 p-4">
        <Form method="post">
          <input type="hidden" name="intent" value="reset-password" />
          <button type="submit" className="btn-secondary" disabled={busy}>
            Reset password
          </button>
        </Form>
        {self ? null : (
          <Form method="post">
            <input type="hidden" name="intent" value={user.disabled ? 'enable' : 'disable'} />
            <button
              type="submit"
              className={user.disabled ? 'btn-secondary' : 'btn-danger'}
              disabled={busy}
            >
              {user.disabled ? 'Enable user' : 'Disable user'}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
