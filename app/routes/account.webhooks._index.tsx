import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { WebhookListPage } from '~/components/settings/webhook-pages';
import { listWebhooks } from '~/models/webhook.server';
import { requireAccountAdmin } from '~/http/auth.server';
import { createWebhookAction } from '~/http/webhook-pages.server';
import { readFormData } from '~/lib/form.server';

const PATH = '/account/webhooks';

/** The account's endpoints, which hear its own parcels' events only (its admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAccountAdmin(request);
  return json({ webhooks: await listWebhooks(user.account.accountId) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAccountAdmin(request);
  // The service makes the endpoint the account's, as /api/webhooks does with its key.
  return createWebhookAction(await readFormData(request), { user, context });
}

export const meta: MetaFunction = () => [
  { title: 'Webhooks · Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

export default function AccountWebhooks() {
  const { webhooks } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Webhooks</h1>
      <WebhookListPage webhooks={webhooks} path={PATH} />
    </div>
  );
}
