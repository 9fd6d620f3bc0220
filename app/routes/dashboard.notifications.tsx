import { RecordListTab } from '~/components/dashboard/record-list';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { NotificationItem } from '~/components/notifications/notification-item';
import { listNotifications, NotificationStateError } from '~/models/notification.server';
import {
  NOTIFICATION_TEMPLATE_DESCRIPTIONS,
  NOTIFICATION_TYPES,
  NOTIFICATIONS_PAGE_SIZE,
} from '~/schemas/constants';
import { hasRole } from '~/models/user.server';
import { requireOfficeUser, requireUserWithRole } from '~/http/auth.server';
import { parseNotificationAction } from '~/http/notification-pages.server';
import { redirectWithOutcome, redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { deleteNotification, retryNotification } from '~/services/notifications.server';
import { listPageUrl, pageFrom } from '~/utils/list-page';

const LIST_PATH = '/dashboard/notifications';

const listUrl = listPageUrl(LIST_PATH);
const GONE = 'This notification no longer exists.';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireOfficeUser(request);
  const page = pageFrom(new URL(request.url));
  const { notifications, pagination } = await listNotifications({
    page,
    limit: NOTIFICATIONS_PAGE_SIZE,
  });
  return json({ notifications, pagination, canEditTemplates: hasRole(user, 'admin') });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const back = listUrl(pageFrom(new URL(request.url)));
  const submission = parseNotificationAction(await readFormData(request));
  if (submission.status !== 'success') return invalidForm(submission);
  const { intent, notificationId } = submission.value;
  const actor = { user, context };
  // A notification whose state forbids the change: the toast says why.
  const refused = (error: unknown, title: string) => {
    if (!(error instanceof NotificationStateError)) throw error;
    return redirectWithToast(request, back, { type: 'error', title, description: error.message });
  };

  if (intent === 'retry') {
    try {
      const notification = await retryNotification(notificationId, actor);
      return redirectWithOutcome(request, back, notification, {
        gone: { title: 'Failed to retry notification', description: GONE },
        done: ({ recipient }) => ({
          title: 'Notification retried',
          description: `E-mail to ${recipient} queued again.`,
        }),
      });
    } catch (error) {
      return refused(error, 'Cannot retry notification');
    }
  }

  try {
    const deleted = await deleteNotification(notificationId, actor);
    return redirectWithOutcome(request, back, deleted, {
      gone: { title: 'Failed to delete notification', description: GONE },
      done: { title: 'Notification deleted' },
    });
  } catch (error) {
    return refused(error, 'Cannot delete notification');
  }
}

export const meta: MetaFunction = () => [{ title: 'Notifications · Management dashboard' }];

export default function NotificationsTab() {
  const { notifications, pagination, canEditTemplates } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const formAction = listUrl(pagination.currentPage);
  const revalidator = useRevalidator();
  const waiting = notifications.some((n) => n.status === 'pending');

  // While e-mails wait in the queue, the list looks again every few seconds (with JavaScript;
  // without it, reloading the page shows the outcome).
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') {
        revalidator.revalidate();
      }
    }, 3000);
    return () => clearInterval(timer);
  }, [waiting, revalidator]);

  return (
    <RecordListTab
      noun="notification"
      pagination={pagination}
      columns="lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start"
      aside={<QuickTemplates canEditTemplates={canEditTemplates} />}
    >
      {notifications.map((notification) => (
        <NotificationItem
          key={notification.id}
          notification={notification}
          formAction={formAction}
          lastResult={
            lastResult?.initialValue?.notificationId === notification.id ? lastResult : null
          }
        />
      ))}
    </RecordListTab>
  );
}

/** Links that open Send Notification with a template chosen, and for admins, the templates. */
function QuickTemplates({ canEditTemplates }: { canEditTemplates: boolean }) {
  return (
    <section aria-labelledby="quick-templates-heading" className="card p-4">
      <h2 id="quick-templates-heading" className="mb-3 text-lg font-semibold">
        Quick Templates
      </h2>
      <ul className="space-y-2">
        {NOTIFICATION_TYPES.map((type) => (
          <li key={type}>
            <Link
              to={`${LIST_PATH}/new?${new URLSearchParams({ type })}${DIALOG_FRAGMENT}`}
              preventScrollReset
              className="block rounded-md border border-gray-200 px-3 py-2 hover:border-brand-500 hover:bg-gray-50"
            >
              <span className="block font-medium text-gray-900">{type}</span>
              <span className="block text-xs text-gray-600">
                {NOTIFICATION_TEMPLATE_DESCRIPTIONS[type]}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {canEditTemplates ? (
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm font-medium">
          <Link to={`${LIST_PATH}/templates`} className="text-brand-700 underline">
            Edit e-mail templates
          </Link>
          <Link to={`${LIST_PATH}/settings`} className="text-brand-700 underline">
            Automatic e-mails
          </Link>
        </p>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
