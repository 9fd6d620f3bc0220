import { type FieldMetadata } from '@conform-to/react';
import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { CheckboxGroup } from '~/components/settings/checkbox-group';
import { ConfirmPanel } from '~/components/settings/confirm-panel';
import { CreateSection } from '~/components/settings/create-section';
import { SecretOnce } from '~/components/settings/secret-once';
import { CardSection } from '~/components/ui/card-section';
import { DataTable, FLUSH, ScrollRegion, type Column } from '~/components/ui/data-table';
import { API_KEY_NAME_MAX } from '~/schemas/constants';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';
import { InputFor } from '~/components/ui/conform-fields';

/**
 * The pieces of an API keys page, the company's (Settings) and a shipper account's (the portal):
 * the table of keys, the new key shown once, and the confirmation of a revocation.
 */
export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  livemode: boolean;
};

function apiKeyColumns(timeZone: string, path: string, withMode: boolean): Column<ApiKeyRow>[] {
  return [
    { header: 'Name', cellClassName: 'font-medium text-gray-900', cell: (key) => key.name },
    { header: 'Key', cellClassName: 'font-mono', cell: (key) => `${key.prefix}…` },
    ...(withMode
      ? [{ header: 'Mode', cell: (key: ApiKeyRow) => (key.livemode ? 'Live' : 'Test') }]
      : []),
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
          to={`${path}?${new URLSearchParams({ revoke: key.id })}#revoke-key`}
          className="btn-secondary"
          aria-label={`Revoke ${key.name}`}
        >
          Revoke
        </Link>
      ),
    },
  ];
}

/** The keys, each with its Revoke link (to `path?revoke=<id>`); `withMode` adds live or test. */
export function ApiKeyList({
  apiKeys,
  path,
  withMode = false,
}: {
  apiKeys: ApiKeyRow[];
  path: string;
  withMode?: boolean;
}) {
  const { timeZone } = useCompany();
  return (
    <CardSection
      headingId="keys-heading"
      title="API keys"
      empty={apiKeys.length === 0 && 'No API keys yet.'}
    >
      <ScrollRegion label="API keys">
        <DataTable
          look={FLUSH}
          columns={apiKeyColumns(timeZone, path, withMode)}
          rows={apiKeys}
          rowKey={(key) => key.id}
        />
      </ScrollRegion>
    </CardSection>
  );
}

/** The key just created, on the answer that created it and never again. */
export function NewApiKey({ created }: { created: { apiKey: { name: string }; key: string } }) {
  return (
    <SecretOnce heading={`New API key: ${created.apiKey.name}`} label="API key" value={created.key}>
      Copy this key now. It will not be shown again. Send it as{' '}
      <code>Authorization: Bearer &lt;key&gt;</code>.
    </SecretOnce>
  );
}

/** The confirmation `?revoke=<id>` shows. */
export function RevokeApiKey({ apiKey, path }: { apiKey: ApiKeyRow; path: string }) {
  return (
    <ConfirmPanel
      id="revoke-key"
      title={`Revoke the API key “${apiKey.name}”?`}
      action={path}
      intent="revoke"
      fields={{ keyId: apiKey.id }}
      confirmLabel="Revoke API key"
      busyLabel="Revoking..."
      cancelTo={path}
    >
      <p>
        Requests with the key <span className="font-mono">{apiKey.prefix}…</span> are refused (401)
        from now on. This cannot be undone: an integration that uses it needs a new key.
      </p>
    </ConfirmPanel>
  );
}

type KeyFields = {
  name: FieldMetadata<string | undefined>;
  scopes: FieldMetadata<string[] | undefined>;
};

/** The create form's card: the key's name and scopes, then the page's own fields. */
export function ApiKeyCreateSection<Schema extends Record<string, unknown>>({
  create,
  scopes,
  scopeHints,
  nameHint,
  children,
}: {
  create: Parameters<typeof CreateSection<Schema>>[0]['form'] & { fields: KeyFields };
  scopes: readonly string[];
  scopeHints: Record<string, string>;
  nameHint: string;
  children?: ReactNode;
}) {
  const { fields } = create;
  return (
    <CreateSection
      headingId="create-key-heading"
      title="Create an API key"
      form={create}
      submitLabel="Create API key"
    >
      <InputFor
        label="Name"
        meta={fields.name}
        required
        maxLength={API_KEY_NAME_MAX}
        hint={nameHint}
      />
      <CheckboxGroup legend="Scopes" field={fields.scopes} options={scopes} labels={scopeHints} />
      {children}
    </CreateSection>
  );
}
