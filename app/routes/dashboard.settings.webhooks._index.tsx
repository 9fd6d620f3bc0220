import { CreateSection, useCreateForm } from '~/components/settings/create-section';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { SecretOnce } from '~/components/settings/secret-once';
import { WebhookFields } from '~/components/settings/webhook-fields';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { requireRole, requireUser } from '~/http/auth.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { addWebhook } from '~/services/integrations.server';
import { webhookUrlProblem } from '~/services/webhooks.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

const PATH = '/dashboard/settings/webhooks';

export async function loader({ request }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return json({ webhooks: await listWebhooks() });
}

type WebhookCreated = Awaited<ReturnType<typeof addWebhook>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const submission = parseWithZod(await readFormData(request), { schema: WebhookCreateSchema });
  const into = (result: FormReply) => ({ created: null, result });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const problem = await webhookUrlProblem(submission.value.url);
  if (problem) return invalidForm(submission, { fieldErrors: { url: [problem] }, into });
  // The signing secret is shown on this answer only.
  const created = await addWebhook(submission.value, { user, context });
  // No toast: it would show on the page after this one; the panel with the secret says it.
  return json({ created, result: submission.reply({ resetForm: true }) });
}

export const meta: MetaFunction = () => [{ title: 'Webhooks · Settings · Management dashboard' }];

export default function WebhooksSettings() {
  const { timeZone } = useCompany();
  const { webhooks } = useLoaderData<typeof loader>();
  const create = useCreateForm<typeof WebhookCreateSchema, WebhookCreated>({
    id: 'create-webhook',
    loadSchema: () => import('~/schemas/integrations').then((m) => m.WebhookCreateSchema),
    defaultValue: { url: '', description: '', events: [] },
    action: PATH,
  });
  const { created } = create;

  return (
    <div className="space-y-6">
      {created ? (
        <SecretOnce
          heading={`New webhook: ${created.webhook.url}`}
          label="Signing secret"
          value={created.secret}
        >
          Copy this signing secret now. It will not be shown again. Verify each delivery's
          webhook-signature header with it (Standard Webhooks).
        </SecretOnce>
      ) : null}

      <CreateSection
        headingId="create-webhook-heading"
        title="Add a webhook"
        form={create}
        submitLabel="Add webhook"
      >
        <WebhookFields fields={create.fields} />
      </CreateSection>

      <CardSection
        headingId="webhooks-heading"
        title="Webhooks"
        empty={webhooks.length === 0 && 'No webhooks yet.'}
      >
        <ul aria-label="Webhooks" className="divide-y divide-gray-100">
          {webhooks.map((webhook) => (
            <li key={webhook.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0 space-y-1">
                <p className="break-all font-mono text-sm text-gray-900">{webhook.url}</p>
                {webhook.description ? (
                  <p className="text-sm text-gray-600">{webhook.description}</p>
                ) : null}
                <p className="text-xs text-gray-500">
                  {webhook.active ? 'Active' : 'Paused'} · {webhook.events.join(', ')} · added{' '}
                  {formatDateTime(webhook.createdAt, timeZone)}
                </p>
              </div>
              <Link
                to={`${PATH}/${webhook.id}`}
                className="btn-secondary"
                aria-label={`Manage ${webhook.url}`}
              >
                Manage
              </Link>
            </li>
          ))}
        </ul>
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
