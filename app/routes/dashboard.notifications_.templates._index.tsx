import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { listNotificationTemplates } from '~/models/notification-template.server';
import { NOTIFICATION_TEMPLATE_DESCRIPTIONS } from '~/schemas/constants';
import { requireRole, requireUser } from '~/http/auth.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  return json({ templates: await listNotificationTemplates() });
}

export const meta: MetaFunction = () => [{ title: 'E-mail templates · Management dashboard' }];

export default function NotificationTemplatesPage() {
  const { timeZone } = useCompany();
  const { templates } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">E-mail templates</h1>
        <Link to="/dashboard/notifications" className="btn-secondary">
          Back to notifications
        </Link>
      </div>
      <ul aria-label="E-mail templates" className="grid gap-4 md:grid-cols-2">
        {templates.map((template) => (
          <li key={template.id} className="card space-y-2 p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-lg font-semibold">{template.type}</h2>
              <span className="text-xs text-gray-600">
                {template.customized
                  ? `Edited ${formatDateTime(template.updatedAt, timeZone)}`
                  : 'Default template'}
              </span>
            </div>
            <p className="text-sm text-gray-600">
              {NOTIFICATION_TEMPLATE_DESCRIPTIONS[template.type]}
            </p>
            <p className="break-words text-sm">
              <span className="font-medium">Subject:</span>{' '}
              {template.subject || <em className="text-gray-500">empty</em>}
            </p>
            <Link
              to={`/dashboard/notifications/templates/${template.id}`}
              className="btn-primary inline-flex"
              aria-label={`Edit the ${template.type} template`}
            >
              Edit
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
