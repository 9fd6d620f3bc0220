import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { WebhookPage } from '~/components/settings/webhook-pages';
import { requireRole, requireUser } from '~/http/auth.server';
import { webhookPageAction, webhookPageData } from '~/http/webhook-pages.server';
import { readFormData } from '~/lib/form.server';

const LIST_PATH = '/dashboard/settings/webhooks';

export async function loader({ request, params }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return json(await webhookPageData(request, params.webhookId, null));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  return webhookPageAction(request, await readFormData(request), {
    id: params.webhookId,
    accountId: null,
    listPath: LIST_PATH,
    actor: { user, context },
  });
}

export const meta: MetaFunction = () => [{ title: 'Webhook · Settings · Management dashboard' }];

export default function WebhookSettings() {
  return <WebhookPage {...useLoaderData<typeof loader>()} listPath={LIST_PATH} />;
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
