import { useCreateForm } from '~/components/settings/create-section';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import {
  ApiKeyCreateSection,
  ApiKeyList,
  NewApiKey,
  RevokeApiKey,
} from '~/components/settings/api-keys';
import { API_KEY_SCOPES } from '~/schemas/constants';
import type { ApiKeyCreateSchema } from '~/schemas/integrations';
import {
  apiKeysPageData,
  keyFormReply,
  parseApiKeyCreate,
  revokeListedApiKey,
} from '~/http/settings-pages.server';
import { requireRole, requireUser } from '~/http/auth.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { issueApiKey } from '~/services/integrations.server';

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
  return json(await apiKeysPageData(request, null));
}

type ApiKeyCreated = Awaited<ReturnType<typeof issueApiKey>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const formData = await readFormData(request);
  if (formData.get('intent') === 'revoke')
    return revokeListedApiKey(request, formData, {
      path: PATH,
      accountId: null,
      actor: { user, context },
    });
  const submission = parseApiKeyCreate(formData);
  if (submission.status !== 'success') return invalidForm(submission, { into: keyFormReply });
  // The key is shown on this answer only (never in a cookie or a redirect), then never again.
  const created = await issueApiKey(submission.value, { user, context });
  // No toast: it would show on the page after this one; the panel with the secret says it.
  return json({ created, result: submission.reply({ resetForm: true }) });
}

export const meta: MetaFunction = () => [{ title: 'API keys · Settings · Management dashboard' }];

export default function ApiKeysSettings() {
  const { apiKeys, toRevoke } = useLoaderData<typeof loader>();
  const create = useCreateForm<typeof ApiKeyCreateSchema, ApiKeyCreated>({
    id: 'create-api-key',
    loadSchema: () => import('~/schemas/integrations').then((m) => m.ApiKeyCreateSchema),
    defaultValue: { name: '', scopes: ['read'] },
    action: PATH,
    intent: 'create',
  });
  const { created } = create;

  return (
    <div className="space-y-6">
      {created ? <NewApiKey created={created} /> : null}
      {toRevoke ? <RevokeApiKey apiKey={toRevoke} path={PATH} /> : null}

      <ApiKeyCreateSection
        create={create}
        scopes={API_KEY_SCOPES}
        scopeHints={SCOPE_HINTS}
        nameHint="Who or what uses it, e.g. Warehouse sync"
      />

      <ApiKeyList apiKeys={apiKeys} path={PATH} />
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
