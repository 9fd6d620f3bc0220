import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { WebhookPage } from '~/components/settings/webhook-pages';
import { requireAccountAdmin } from '~/http/auth.server';
import { webhookPageAction, webhookPageData } from '~/http/webhook-pages.server';
import { readFormData } from '~/lib/form.server';

const LIST_PATH = '/account/webhooks';

/** One of the account's endpoints (another's is not found): edit, delete, deliveries. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAccountAdmin(request);
  return json(await webhookPageData(request, params.webhookId, user.account.accountId));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireAccountAdmin(request);
  return webhookPageAction(request, await readFormData(request), {
    id: params.webhookId,
    accountId: user.account.accountId,
    listPath: LIST_PATH,
    actor: { user, context },
  });
}

export const meta: MetaFunction = () => [
  { title: 'Webhook · Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

export default function AccountWebhook() {
  return <WebhookPage {...useLoaderData<typeof loader>()} listPath={LIST_PATH} />;
}
