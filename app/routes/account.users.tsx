import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { CardSection } from '~/components/ui/card-section';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { accountUserOwnedBy, listAccountUsers, type PublicUser } from '~/models/user.server';
import { AccountUserInviteSchema, AccountUserStatusFormSchema } from '~/schemas/account';
import { isAccountAdmin, requireAccountAdmin, requireShipper } from '~/http/auth.server';
import { ConflictError } from '~/lib/errors.server';
import { redirectWithToast } from '~/lib/flash.server';
import { intentAction, intentForm } from '~/http/intent-action.server';
import { invalidForm } from '~/lib/form-reply.server';
import { EMAIL_IN_USE, inviteAccountUser } from '~/services/account-users.server';
import { setUserDisabled } from '~/services/users.server';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor, SelectFor } from '~/components/ui/conform-fields';

const PATH = '/account/users';
const ROLE_OPTIONS = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

/** The account's users; its admins also invite, disable and enable them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  return json({
    users: await listAccountUsers(user.account.accountId),
    canManage: isAccountAdmin(user),
    me: user.id,
  });
}

// A function, so that the browser's bundle, which leaves the server's code out, calls nothing.
export const action = (args: ActionFunctionArgs) =>
  intentAction(requireAccountAdmin, ({ request, user, actor }) => ({
    'user-status': intentForm(AccountUserStatusFormSchema, async ({ userId, disabled }) => {
      // Another account's user, or staff, is not there.
      if (!(await accountUserOwnedBy(userId, user.account.accountId)))
        throw json({ message: 'User not found' }, { status: 404 });
      try {
        // Disabling ends the user's sessions at once.
        const changed = await setUserDisabled(userId, disabled, actor);
        return redirectWithToast(request, PATH, {
          type: 'success',
          title: disabled ? 'User disabled' : 'User enabled',
          description: changed?.email ?? '',
        });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return redirectWithToast(request, PATH, {
          type: 'error',
          title: 'Failed to change the user',
          description: error.message,
        });
      }
    }),
    '': intentForm(AccountUserInviteSchema, async (value, submission) => {
      try {
        const invited = await inviteAccountUser(user.account.accountId, value, actor);
        return redirectWithToast(request, PATH, {
          type: 'success',
          title: 'Invitation sent',
          description: invited.email,
        });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return invalidForm(submission, { fieldErrors: { email: [EMAIL_IN_USE] }, status: 409 });
      }
    }),
  }))(args);

export const meta: MetaFunction = () => [
  { title: 'Users · Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

type UserRow = Pick<PublicUser, 'id' | 'name' | 'email' | 'accountRole' | 'disabled'>;

function StatusButton({ user }: { user: UserRow }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="user-status" />
      <input type="hidden" name="userId" value={user.id} />
      <input type="hidden" name="disabled" value={user.disabled ? 'false' : 'true'} />
      <button type="submit" className="text-brand-700 underline">
        {user.disabled ? 'Enable' : 'Disable'}
        <span className="sr-only"> {user.email}</span>
      </button>
    </Form>
  );
}

export default function AccountUsers() {
  const { users, canManage, me } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: 'invite-user',
    lastResult: useActionData<typeof action>(),
    defaultValue: { accountRole: 'member' },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountUserInviteSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  const inviting = useIsPending({ formAction: PATH, state: 'submitting' });
  const columns: Column<UserRow>[] = [
    { header: 'Name', rowHeader: true, cell: (u) => u.name },
    { header: 'Email', cellClassName: 'break-all', cell: (u) => u.email },
    { header: 'Role', cell: (u) => (u.accountRole === 'admin' ? 'Admin' : 'Member') },
    { header: 'Status', cell: (u) => (u.disabled ? 'Disabled' : 'Active') },
    ...(canManage
      ? [
          {
            header: <span className="sr-only">Actions</span>,
            cell: (u: UserRow) => (u.id === me ? null : <StatusButton user={u} />),
          },
        ]
      : []),
  ];
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Users</h1>
      <CardSection
        headingId="users-heading"
        title="Your account's users"
        description={canManage ? undefined : "Only your account's admins invite or disable users."}
      >
        <ScrollRegion label="Users">
          <DataTable caption="Users" columns={columns} rows={users} rowKey={(u) => u.id} />
        </ScrollRegion>
      </CardSection>
      {canManage ? (
        <CardSection headingId="invite-heading" title="Invite a user">
          <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:grid-cols-2">
            <FormErrors id={form.errorId} errors={form.errors} />
            <InputFor label="Name" meta={fields.name} autoComplete="off" />
            <InputFor label="Email" meta={fields.email} type="email" autoComplete="off" />
            <SelectFor label="Role" meta={fields.accountRole} options={ROLE_OPTIONS} />
            <div className="sm:col-span-2">
              <SubmitButton pending={inviting} pendingLabel="Inviting...">
                Invite user
              </SubmitButton>
            </div>
          </Form>
        </CardSection>
      ) : null}
    </div>
  );
}
