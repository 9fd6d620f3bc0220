import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import {
  ApiKeyCreateSection,
  ApiKeyList,
  NewApiKey,
  RevokeApiKey,
} from '~/components/settings/api-keys';
import { useCreateForm } from '~/components/settings/create-section';
import {
  ACCOUNT_KEY_SCOPES,
  AccountApiKeyCreateSchema,
  type AccountApiKeyCreateSchema as CreateSchema,
} from '~/schemas/account';
import { requireAccountAdmin } from '~/http/auth.server';
import { apiKeysPageData, keyFormReply, revokeListedApiKey } from '~/http/settings-pages.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { issueAccountApiKey } from '~/services/accounts.server';
import { SelectFor } from '~/components/ui/conform-fields';

const PATH = '/account/api-keys';

const SCOPE_HINTS: Record<string, string> = {
  read: 'Read: every GET request',
  write: 'Write: create parcels and change them',
};
const MODE_OPTIONS = [
  { value: 'live', label: 'Live (sk_live_…): your real parcels' },
  { value: 'test', label: 'Test (sk_test_…): test parcels, never delivered or messaged' },
];

/** The account's keys, live and test: its admins make them (the key shown once) and revoke them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAccountAdmin(request);
  return json(await apiKeysPageData(request, user.account.accountId));
}

type ApiKeyCreated = Awaited<ReturnType<typeof issueAccountApiKey>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAccountAdmin(request);
  const { accountId } = user.account;
  const actor = { user, context };
  const formData = await readFormData(request);
  if (formData.get('intent') === 'revoke')
    return revokeListedApiKey(request, formData, { path: PATH, accountId, actor });
  const submission = parseWithZod(formData, { schema: AccountApiKeyCreateSchema });
  if (submission.status !== 'success') return invalidForm(submission, { into: keyFormReply });
  // The key is shown on this answer only, then never again.
  const created = await issueAccountApiKey(accountId, submission.value, actor);
  return json({ created, result: submission.reply({ resetForm: true }) });
}

export const meta: MetaFunction = () => [
  { title: 'API keys · Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

export default function AccountApiKeys() {
  const { apiKeys, toRevoke } = useLoaderData<typeof loader>();
  const create = useCreateForm<typeof CreateSchema, ApiKeyCreated>({
    id: 'create-api-key',
    loadSchema: () => import('~/schemas/account').then((m) => m.AccountApiKeyCreateSchema),
    defaultValue: { name: '', scopes: ['read'], mode: 'live' },
    action: PATH,
    intent: 'create',
  });
  const { fields, created } = create;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">API keys</h1>
      {created ? <NewApiKey created={created} /> : null}
      {toRevoke ? <RevokeApiKey apiKey={toRevoke} path={PATH} /> : null}
      <ApiKeyCreateSection
        create={create}
        scopes={ACCOUNT_KEY_SCOPES}
        scopeHints={SCOPE_HINTS}
        nameHint="Who or what uses it, e.g. Shop integration"
      >
        <SelectFor label="Mode" meta={fields.mode} options={MODE_OPTIONS} />
      </ApiKeyCreateSection>
      <ApiKeyList apiKeys={apiKeys} path={PATH} withMode />
    </div>
  );
}
