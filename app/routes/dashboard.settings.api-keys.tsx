import { CreateSection, useCreateForm } from '~/components/settings/create-section';
import { getInputProps } from '@conform-to/react';
import type {
  ActionFunctionArgs,
  LoaderFunctionArgs,
  MetaFunction,
  SerializeFrom,
} from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CheckboxGroup } from '~/components/settings/checkbox-group';
import { ConfirmPanel } from '~/components/settings/confirm-panel';
import { SecretOnce } from '~/components/settings/secret-once';
import { CardSection } from '~/components/ui/card-section';
import { DataTable, FLUSH, type Column } from '~/components/ui/data-table';
import { Field } from '~/components/ui/field';
import { listApiKeys } from '~/models/api-key.server';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '~/schemas/constants';
import type { ApiKeyCreateSchema } from '~/schemas/integrations';
import { parseApiKeyCreate, parseApiKeyRevoke } from '~/http/settings-pages.server';
import { requireRole, requireUser } from '~/http/auth.server';
import { GONE, redirectWithOutcome } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { issueApiKey, revokeApiKey } from '~/services/integrations.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

const PATH = '/dashboard/settings/api-keys';

const SCOPE_HINTS: Record<string, string> = {
  read: 'Read: every GET request',
  write: 'Write: create, change and delete',
  admin: 'Admin: users, API keys and webhooks (changing them needs Write too)',
};

async function requireAdmin(request: Request) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const apiKeys = await listApiKeys();
  // `?revoke=<id>`: the key whose revocation the page asks to confirm.
  const revokeId = new URL(request.url).searchParams.get('revoke');
  const toRevoke = apiKeys.find((key) => key.id === revokeId) ?? null;
  return json({ apiKeys, toRevoke });
}

type ApiKeyCreated = Awaited<ReturnType<typeof issueApiKey>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const formData = await readFormData(request);
  const into = (result: FormReply) => ({ created: null, result });
  if (formData.get('intent') === 'revoke') {
    const submission = parseApiKeyRevoke(formData);
    if (submission.status !== 'success') return invalidForm(submission, { into });
    const revoked = await revokeApiKey(submission.value.keyId, { user, context });
    return redirectWithOutcome(request, PATH, revoked, {
      gone: { title: 'Failed to revoke API key', description: GONE },
      done: (key) => ({ title: 'API key revoked', description: key.name }),
    });
  }
  const submission = parseApiKeyCreate(formData);
  if (submission.status !== 'success') return invalidForm(submission, { into });
  // The key is shown on this answer only (never in a cookie or a redirect), then never again.
  const created = await issueApiKey(submission.value, { user, context });
  // No toast: it would show on the page after this one; the panel with the secret says it.
  return json({ created, result: submission.reply({ resetForm: true }) });
}

export const meta: MetaFunction = () => [{ title: 'API keys · Settings · Management dashboard' }];

type ApiKeyRow = SerializeFrom<typeof loader>['apiKeys'][number];

function apiKeyColumns(timeZone: string): Column<ApiKeyRow>[] {
  return [
    { header: 'Name', cellClassName: 'font-medium text-gray-900', cell: (key) => key.name },
    { header: 'Key', cellClassName: 'font-mono', cell: (key) => `${key.prefix}…` },
    { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
    { header: 'Created', cell: (key) => formatDateTime(key.createdAt, timeZone) },
    {
      header: 'Last used',
      cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt, timeZone) : 'Never'),
    },
    {
      header: <span className="sr-only">Actions</span>,
      cellClassName: 'text-right',
      cell: (key) => (
        <Link
          to={`${PATH}?${new URLSearchParams({ revoke: key.id })}#revoke-key`}
          className="btn-secondary"
          aria-label={`Revoke ${key.name}`}
        >
          Revoke
        </Link>
      ),
    },
  ];
}

export default function ApiKeysSettings() {
  const { timeZone } = useCompany();
  const { apiKeys, toRevoke } = useLoaderData<typeof loader>();
  const columns = apiKeyColumns(timeZone);
  const create = useCreateForm<typeof ApiKeyCreateSchema, ApiKeyCreated>({
    id: 'create-api-key',
    loadSchema: () => import('~/schemas/integrations').then((m) => m.ApiKeyCreateSchema),
    defaultValue: { name: '', scopes: ['read'] },
    action: PATH,
    intent: 'create',
  });
  const { fields, created } = create;

  return (
    <div className="space-y-6">
      {created ? (
        <SecretOnce
          heading={`New API key: ${created.apiKey.name}`}
          label="API key"
          value={created.key}
        >
          Copy this key now. It will not be shown again. Send it as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>.
        </SecretOnce>
      ) : null}

      {toRevoke ? (
        <ConfirmPanel
          id="revoke-key"
          title={`Revoke the API key “${toRevoke.name}”?`}
          action={PATH}
          intent="revoke"
          fields={{ keyId: toRevoke.id }}
          confirmLabel="Revoke API key"
          busyLabel="Revoking..."
          cancelTo={PATH}
        >
          <p>
            Requests with the key <span className="font-mono">{toRevoke.prefix}…</span> are refused
            (401) from now on. This cannot be undone: an integration that uses it needs a new key.
          </p>
        </ConfirmPanel>
      ) : null}

      <CreateSection
        headingId="create-key-heading"
        title="Create an API key"
        form={create}
        submitLabel="Create API key"
      >
        <Field
          label="Name"
          {...getInputProps(fields.name, { type: 'text' })}
          required
          maxLength={API_KEY_NAME_MAX}
          hint="Who or what uses it, e.g. Warehouse sync"
          errors={fields.name.errors}
        />
        <CheckboxGroup
          legend="Scopes"
          field={fields.scopes}
          options={API_KEY_SCOPES}
          labels={SCOPE_HINTS}
        />
      </CreateSection>

      <CardSection
        headingId="keys-heading"
        title="API keys"
        empty={apiKeys.length === 0 && 'No API keys yet.'}
      >
        <div className="overflow-x-auto">
          <DataTable look={FLUSH} columns={columns} rows={apiKeys} rowKey={(key) => key.id} />
        </div>
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
