import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { CardSection } from '~/components/ui/card-section';
import { ConfirmPanel } from '~/components/settings/confirm-panel';
import { WebhookFields } from '~/components/settings/webhook-fields';
import { FormErrors } from '~/components/ui/field';
import { getWebhook, listDeliveries } from '~/models/webhook.server';
import {
  WebhookDeleteSchema,
  WebhookEditFormSchema,
  WebhookRedeliverSchema,
} from '~/schemas/integrations';
import { requireRole, requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { webhookUrlProblem } from '~/services/webhooks.server';
import { redeliver, RedeliveryConflict } from '~/services/webhooks.server';
import { formatDateTime } from '~/utils/format';
import { pageFrom } from '~/utils/list-page';
import { useCompany } from '~/utils/use-company';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

const LIST_PATH = '/dashboard/settings/webhooks';
const DELIVERIES_PER_PAGE = 20;

async function loadWebhook(id: string | undefined) {
  const webhook = id ? await getWebhook(id) : null;
  if (!webhook) throw json({ message: 'Webhook not found' }, { status: 404 });
  return webhook;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  const webhook = await loadWebhook(params.webhookId);
  const page = pageFrom(new URL(request.url));
  const { deliveries, pagination } = await listDeliveries(webhook.id, {
    page,
    limit: DELIVERIES_PER_PAGE,
  });
  // `?delete`: the page asks to confirm the webhook's deletion.
  const confirmDelete = new URL(request.url).searchParams.has('delete');
  return json({ webhook, deliveries, pagination, confirmDelete });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const webhook = await loadWebhook(params.webhookId);
  const here = `${LIST_PATH}/${webhook.id}`;
  const formData = await readFormData(request);
  const intent = formData.get('intent');

  if (intent === 'delete') {
    const submission = parseWithZod(formData, { schema: WebhookDeleteSchema });
    if (submission.status !== 'success') return invalidForm(submission);
    await deleteWebhook(webhook.id, { user, context });
    return redirectWithToast(request, LIST_PATH, {
      type: 'success',
      title: 'Webhook deleted',
      description: webhook.url,
    });
  }

  if (intent === 'redeliver') {
    const submission = parseWithZod(formData, { schema: WebhookRedeliverSchema });
    if (submission.status !== 'success') return invalidForm(submission);
    try {
      const delivery = await redeliver(webhook.id, submission.value.deliveryId);
      return redirectWithToast(
        request,
        here,
        delivery
          ? { type: 'success', title: 'Delivery queued', description: delivery.type }
          : { type: 'error', title: 'Failed to redeliver', description: 'Delivery not found.' },
      );
    } catch (error) {
      if (!(error instanceof RedeliveryConflict)) throw error;
      return redirectWithToast(request, here, {
        type: 'error',
        title: 'Failed to redeliver',
        description: error.message,
      });
    }
  }

  const submission = parseWithZod(formData, { schema: WebhookEditFormSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const problem = await webhookUrlProblem(submission.value.url);
  if (problem) return invalidForm(submission, { fieldErrors: { url: [problem] } });
  await updateWebhook(webhook.id, submission.value, { user, context });
  return redirectWithToast(request, here, {
    type: 'success',
    title: 'Webhook updated',
    description: submission.value.url,
  });
}

export const meta: MetaFunction = () => [{ title: 'Webhook · Settings · Management dashboard' }];

export default function WebhookSettings() {
  const { timeZone } = useCompany();
  const { webhook, deliveries, pagination, confirmDelete } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const here = `${LIST_PATH}/${webhook.id}`;
  const [form, fields] = useForm({
    id: `edit-webhook-${webhook.id}`,
    lastResult: navigation.state === 'idle' ? lastResult : null,
    defaultValue: {
      url: webhook.url,
      description: webhook.description,
      events: webhook.events,
      active: webhook.active ? 'on' : undefined,
    },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookEditFormSchema }),
  });
  const saving = useIsPending({
    formAction: here,
    state: 'submitting',
    formData: { intent: 'update' },
  });

  return (
    <div className="space-y-6">
      <p>
        <Link to={LIST_PATH} className="text-sm text-brand-700 underline">
          All webhooks
        </Link>
      </p>
      {confirmDelete ? (
        <ConfirmPanel
          id="delete-webhook"
          title={`Delete the webhook ${webhook.url}?`}
          action={here}
          intent="delete"
          confirmLabel="Delete webhook"
          busyLabel="Deleting..."
          cancelTo={here}
        >
          <p>
            No more events are sent to this endpoint, and deliveries waiting for a retry are not
            sent. This cannot be undone.
          </p>
        </ConfirmPanel>
      ) : null}
      <CardSection
        headingId="edit-webhook-heading"
        title={`Webhook ${webhook.url}`}
        headingClassName="break-all"
      >
        <Form method="post" action={here} {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <WebhookFields fields={fields} />
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(fields.active, { type: 'checkbox' })} />
            Active (deliver events to this endpoint)
          </label>
          <SubmitButton name="intent" value="update" pending={saving} pendingLabel="Saving...">
            Save webhook
          </SubmitButton>
        </Form>
        <p className="mt-4 border-t pt-4">
          <Link to={`${here}?delete#delete-webhook`} className="btn-danger">
            Delete webhook
          </Link>
        </p>
      </CardSection>

      <CardSection headingId="deliveries-heading" title="Deliveries">
        {deliveries.length === 0 ? (
          <p className="py-6 text-center text-sm text-gray-600">No deliveries yet.</p>
        ) : (
          <ul aria-label="Deliveries" className="divide-y divide-gray-100">
            {deliveries.map((delivery) => (
              <li key={delivery.id} className="space-y-2 py-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="text-sm">
                    <span className="font-medium text-gray-900">{delivery.type}</span>{' '}
                    <span className="text-gray-600">
                      · {delivery.status} · {formatDateTime(delivery.createdAt, timeZone)} ·{' '}
                      <code>{delivery.messageId}</code>
                    </span>
                  </p>
                  <Form method="post" action={here}>
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="redeliver"
                      className="btn-secondary"
                      aria-label={`Redeliver ${delivery.type} ${delivery.messageId}`}
                    >
                      Redeliver
                    </button>
                  </Form>
                </div>
                {delivery.attempts.length ? (
                  <ol className="space-y-1 text-xs text-gray-600">
                    {delivery.attempts.map((attempt, i) => (
                      <li key={`${attempt.at}-${i}`}>
                        Attempt {i + 1}, {formatDateTime(attempt.at, timeZone)}:{' '}
                        {attempt.statusCode ?? 'no answer'} in {attempt.durationMs} ms
                        {attempt.error ? ` — ${attempt.error}` : ''}
                        {attempt.response ? (
                          <pre className="mt-1 max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-2">
                            {attempt.response}
                          </pre>
                        ) : null}
                      </li>
                    ))}
                  </ol>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {pagination.totalPages > 1 ? (
          <nav aria-label="Delivery pages" className="mt-4 flex justify-between border-t pt-4">
            {pagination.currentPage > 1 ? (
              <Link
                to={`${here}?page=${pagination.currentPage - 1}`}
                rel="prev"
                className="btn-secondary"
              >
                Newer
              </Link>
            ) : (
              <span />
            )}
            {pagination.currentPage < pagination.totalPages ? (
              <Link
                to={`${here}?page=${pagination.currentPage + 1}`}
                rel="next"
                className="btn-secondary"
              >
                Older
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </CardSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
