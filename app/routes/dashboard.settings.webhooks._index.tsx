import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { WebhookListPage } from '~/components/settings/webhook-pages';
import { listWebhooks } from '~/models/webhook.server';
import { requireRole, requireUser } from '~/http/auth.server';
import { createWebhookAction } from '~/http/webhook-pages.server';
import { readFormData } from '~/lib/form.server';

const PATH = '/dashboard/settings/webhooks';

export async function loader({ request }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return json({ webhooks: await listWebhooks() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  return createWebhookAction(await readFormData(request), { user, context });
}

export const meta: MetaFunction = () => [{ title: 'Webhooks · Settings · Management dashboard' }];

export default function WebhooksSettings() {
  const { webhooks } = useLoaderData<typeof loader>();
  return <WebhookListPage webhooks={webhooks} path={PATH} />;
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
