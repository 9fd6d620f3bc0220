import { useCanEdit } from '~/utils/use-dashboard-user';
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { Form } from '@remix-run/react';
import type { z } from 'zod';
import type { SerializedNotification } from '~/models/notification.server';
import type { NotificationActionSchema } from '~/schemas/notification';
import { FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { formatDateTime } from '~/utils/format';
import { NotificationStatusBadge } from './notification-status-badge';
import { useCompany } from '~/utils/use-company';
import type { EntryActions } from '~/components/dashboard/record-list';

/** How each notification went, as its entry says. */
const CHANNEL_LABELS = { email: 'E-mail', sms: 'Text' } as const;

/** What a failed notification offers. */
const FAILED_ACTIONS = [
  { intent: 'retry', label: 'Retry', pendingLabel: 'Retrying...', className: 'btn-secondary' },
  { intent: 'delete', label: 'Delete', pendingLabel: 'Deleting...', className: 'btn-danger' },
] as const;

/** One entry of 'Recent Notifications'; Retry and Delete are offered for failed ones. */
export function NotificationItem({
  notification,
  formAction,
  lastResult,
}: { notification: SerializedNotification } & EntryActions) {
  const { timeZone } = useCompany();
  const canEdit = useCanEdit();
  const [form, fields] = useForm<z.input<typeof NotificationActionSchema>>({
    id: `notification-actions-${notification.id}`,
    lastResult,
    defaultValue: { notificationId: notification.id },
  });
  const pending = (intent: string) => ({
    formAction,
    formData: { notificationId: notification.id, intent },
  });
  const retrying = useIsPending(pending('retry'));
  const deleting = useIsPending(pending('delete'));
  const headingId = `notification-${notification.id}`;

  return (
    <li
      aria-labelledby={headingId}
      className="space-y-2 py-4"
      data-notification-id={notification.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="break-words font-semibold text-gray-900">
            {notification.title}
          </h3>
          <p className="text-sm text-gray-600">
            <span className="font-medium text-gray-800">
              {CHANNEL_LABELS[notification.channel]}
            </span>
            {' · '}
            <span className="font-medium text-gray-800">{notification.type}</span>
            {notification.automatic ? ' (automatic)' : null}
            {' · '}To <span className="break-all">{notification.recipient}</span>
            {' · '}Tracking <span className="font-mono">{notification.trackingNumber}</span>
          </p>
        </div>
        <NotificationStatusBadge status={notification.status} />
      </div>
      <p className="text-xs text-gray-500">
        Created{' '}
        <time dateTime={notification.createdAt ?? undefined}>
          {formatDateTime(notification.createdAt, timeZone)}
        </time>
        {notification.emailResult.attempts > 1
          ? ` · ${notification.emailResult.attempts} attempts`
          : null}
      </p>
      {notification.status === 'pending' && notification.emailResult.error ? (
        <p className="rounded-md bg-yellow-50 px-3 py-2 text-sm text-yellow-900">
          <span className="font-semibold">Attempt {notification.emailResult.attempts} failed:</span>{' '}
          {notification.emailResult.error}
          {notification.emailResult.nextAttemptAt ? (
            <>
              {' '}
              · next attempt{' '}
              <time dateTime={notification.emailResult.nextAttemptAt}>
                {formatDateTime(notification.emailResult.nextAttemptAt, timeZone)}
              </time>
            </>
          ) : null}
        </p>
      ) : null}
      {notification.status === 'pending' &&
      !notification.emailResult.error &&
      notification.emailResult.nextAttemptAt ? (
        <p className="rounded-md bg-gray-50 px-3 py-2 text-sm text-gray-700">
          Held for the recipient&apos;s quiet hours until{' '}
          <time dateTime={notification.emailResult.nextAttemptAt}>
            {formatDateTime(notification.emailResult.nextAttemptAt, timeZone)}
          </time>
        </p>
      ) : null}
      {notification.status === 'failed' && notification.emailResult.error ? (
        <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          <span className="font-semibold">
            {notification.channel === 'sms' ? 'Provider error:' : 'E-mail error:'}
          </span>{' '}
          {notification.emailResult.error}
        </p>
      ) : null}
      {notification.status === 'failed' && canEdit ? (
        <Form
          method="post"
          action={formAction}
          {...getFormProps(form)}
          className="flex flex-wrap gap-2"
          preventScrollReset
        >
          <FormErrors id={form.errorId} errors={Object.values(form.allErrors).flat()} />
          <input {...getInputProps(fields.notificationId, { type: 'hidden' })} />
          {FAILED_ACTIONS.map(({ intent, label, pendingLabel, className }) => (
            <SubmitButton
              key={intent}
              name={fields.intent.name}
              value={intent}
              className={className}
              pending={intent === 'retry' ? retrying : deleting}
              pendingLabel={pendingLabel}
              disabled={retrying || deleting}
              aria-label={`${label} notification to ${notification.recipient}`}
            >
              {label}
            </SubmitButton>
          ))}
        </Form>
      ) : null}
    </li>
  );
}
