import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { SecretOnce } from '~/components/settings/secret-once';
import { WebhookFields } from '~/components/settings/webhook-fields';
import { FormErrors } from '~/components/ui/field';
import { listWebhooks } from '~/models/webhook.server';
import { WebhookCreateSchema } from '~/schemas/integrations';
import { requireRole, requireUser } from '~/http/auth.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import { addWebhook } from '~/services/integrations.server';
import { webhookUrlProblem } from '~/services/webhooks.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/root';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

const PATH = '/dashboard/settings/webhooks';

export async function loader({ request }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return json({ webhooks: await listWebhooks() });
}

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
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'create-webhook',
    lastResult: navigation.state === 'idle' ? actionData?.result : null,
    defaultValue: { url: '', description: '', events: [] },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookCreateSchema }),
  });
  const creating = useIsPending({ formAction: PATH, state: 'submitting' });
  const created = actionData?.created ?? null;

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

      <CardSection headingId="create-webhook-heading" title="Add a webhook">
        <Form method="post" action={PATH} {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <WebhookFields fields={fields} />
          <SubmitButton pending={creating} pendingLabel="Creating...">
            Add webhook
          </SubmitButton>
        </Form>
      </CardSection>

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
