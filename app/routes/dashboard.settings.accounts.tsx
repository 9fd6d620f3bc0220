import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { DataTable, type Column } from '~/components/ui/data-table';
import { Field, FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { listAccounts, type SerializedAccount } from '~/models/account.server';
import { AccountCreateSchema, AccountStatusFormSchema } from '~/schemas/account';
import { requireUserWithRole } from '~/http/auth.server';
import { GONE, redirectWithOutcome, redirectWithToast } from '~/lib/flash.server';
import { intentAction, intentForm, withRole } from '~/http/intent-action.server';
import { createAccount, updateAccount } from '~/services/accounts.server';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor } from '~/components/ui/conform-fields';

const PATH = '/dashboard/settings/accounts';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  return json({ accounts: await listAccounts() });
}

/** Adds a shipper account, or suspends or reactivates one. */
// A function, so that the browser's bundle, which leaves the server's code out, calls nothing.
export const action = (args: ActionFunctionArgs) =>
  intentAction(withRole('admin'), ({ request, actor }) => ({
    status: intentForm(AccountStatusFormSchema, async ({ accountId, status }) => {
      const account = await updateAccount(accountId, { status }, actor);
      return redirectWithOutcome(request, PATH, account, {
        gone: { title: 'Failed to change the account', description: GONE },
        done: (changed) => ({
          title: changed.status === 'suspended' ? 'Account suspended' : 'Account reactivated',
          description: changed.name,
        }),
      });
    }),
    '': intentForm(AccountCreateSchema, async (value) => {
      const account = await createAccount(value, actor);
      return redirectWithToast(request, PATH, {
        type: 'success',
        title: 'Account added',
        description: account.name,
      });
    }),
  }))(args);

export const meta: MetaFunction = () => [{ title: 'Accounts · Settings · Management dashboard' }];

const ADDRESS_PARTS = [
  ['address', 'Address'],
  ['city', 'City'],
  ['region', 'Region (optional)'],
  ['postalCode', 'Postal code (optional)'],
  ['country', 'Country'],
] as const;

export default function AccountSettings() {
  const { accounts } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    lastResult: useActionData<typeof action>(),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountCreateSchema }),
  });
  const address = fields.address.getFieldset();
  const pending = useIsPending();
  const columns: Column<SerializedAccount>[] = [
    { header: 'Company', rowHeader: true, cell: (a) => a.name },
    { header: 'Email', cell: (a) => a.email },
    { header: 'Status', cell: (a) => (a.status === 'suspended' ? 'Suspended' : 'Active') },
    {
      header: <span className="sr-only">Actions</span>,
      cell: (a) => (
        <Form method="post">
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="accountId" value={a.id} />
          <input
            type="hidden"
            name="status"
            value={a.status === 'suspended' ? 'active' : 'suspended'}
          />
          <button type="submit" className="text-brand-700 underline">
            {a.status === 'suspended' ? 'Reactivate' : 'Suspend'}
            <span className="sr-only"> {a.name}</span>
          </button>
        </Form>
      ),
    },
  ];
  return (
    <div className="space-y-6">
      <CardSection
        headingId="accounts-heading"
        title="Shipper accounts"
        description="Customers who see their own parcels in the portal (/account) and through their own API keys."
        empty={accounts.length ? false : 'No accounts yet.'}
      >
        <DataTable
          caption="Shipper accounts"
          columns={columns}
          rows={accounts}
          rowKey={(a) => a.id}
        />
      </CardSection>
      <CardSection headingId="new-account-heading" title="Add an account">
        <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:grid-cols-2">
          <FormErrors id={form.errorId} errors={form.errors} />
          <InputFor label="Company name" meta={fields.name} />
          <InputFor label="Email" meta={fields.email} type="email" />
          <InputFor label="Phone (optional)" meta={fields.phone} type="tel" />
          {ADDRESS_PARTS.map(([part, label]) => {
            const { key: _key, ...props } = getInputProps(address[part], { type: 'text' });
            return <Field key={part} label={label} {...props} errors={address[part].errors} />;
          })}
          <div className="sm:col-span-2">
            <SubmitButton pending={pending} pendingLabel="Adding...">
              Add account
            </SubmitButton>
          </div>
        </Form>
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
