import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { ConfirmPanel } from '~/components/settings/confirm-panel';
import { CreateSection, useCreateForm } from '~/components/settings/create-section';
import { SecretOnce } from '~/components/settings/secret-once';
import { WebhookFields } from '~/components/settings/webhook-fields';
import { CardSection, ListCard } from '~/components/ui/card-section';
import { FormErrors } from '~/components/ui/field';
import { RecordIntentButton, SubmitButton } from '~/components/ui/submit-button';
import type { WebhookCreateSchema } from '~/schemas/integrations';
import { WebhookEditFormSchema } from '~/schemas/integrations';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';
import { useIsPending } from '~/utils/use-is-pending';

/**
 * The webhooks pages, the company's (Settings → Webhooks) and a shipper account's (the portal):
 * the list with its create form (the signing secret shown once), and one endpoint's page (edit,
 * delete, its deliveries and redelivery). Their loaders and actions are in
 * app/http/webhook-pages.server.ts.
 */
type WebhookRow = {
  id: string;
  url: string;
  description: string;
  events: string[];
  active: boolean;
  createdAt: string;
};

type WebhookCreated = { webhook: { url: string }; secret: string };

type Delivery = {
  id: string;
  type: string;
  status: string;
  createdAt: string;
  messageId: string;
  attempts: {
    at: string;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    response: string;
  }[];
};

/** The endpoints (each a Manage link to `path/<id>`) and the form that adds one. */
export function WebhookListPage({ webhooks, path }: { webhooks: WebhookRow[]; path: string }) {
  const { timeZone } = useCompany();
  const create = useCreateForm<typeof WebhookCreateSchema, WebhookCreated>({
    id: 'create-webhook',
    loadSchema: () => import('~/schemas/integrations').then((m) => m.WebhookCreateSchema),
    defaultValue: { url: '', description: '', events: [] },
    action: path,
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

      <ListCard
        headingId="webhooks-heading"
        title="Webhooks"
        empty="No webhooks yet."
        items={webhooks}
        listLabel="Webhooks"
        listClassName="divide-y divide-gray-100"
        itemClassName="flex flex-wrap items-start justify-between gap-3 py-3"
      >
        {(webhook) => (
          <>
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
              to={`${path}/${webhook.id}`}
              className="btn-secondary"
              aria-label={`Manage ${webhook.url}`}
            >
              Manage
            </Link>
          </>
        )}
      </ListCard>
    </div>
  );
}

/** One endpoint: its form, its deletion, its deliveries (with Redeliver), `listPath` its list's. */
export function WebhookPage({
  webhook,
  deliveries,
  pagination,
  confirmDelete,
  listPath,
}: {
  webhook: WebhookRow;
  deliveries: Delivery[];
  pagination: { currentPage: number; totalPages: number };
  confirmDelete: boolean;
  listPath: string;
}) {
  const { timeZone } = useCompany();
  const lastResult = useActionData() as SubmissionResult<string[]> | undefined;
  const navigation = useNavigation();
  const here = `${listPath}/${webhook.id}`;
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
        <Link to={listPath} className="text-sm text-brand-700 underline">
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
                  <RecordIntentButton
                    action={here}
                    intent="redeliver"
                    idField="deliveryId"
                    id={delivery.id}
                    label={`Redeliver ${delivery.type} ${delivery.messageId}`}
                    className="btn-secondary"
                  >
                    Redeliver
                  </RecordIntentButton>
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
