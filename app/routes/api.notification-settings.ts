import { json } from '@remix-run/node';
import { getNotificationSettings } from '~/models/notification-settings.server';
import { saveAutomaticEmailSettings } from '~/services/notification-templates.server';
import {
  AccountTextsQuerySchema,
  NotificationSettingsSchema,
} from '~/schemas/notification-settings';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';

const settings = wrap('settings', 'NotificationSettings');

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: 'viewer',
      summary: 'Which parcel statuses e-mail the recipient, with which template',
      description:
        'Which parcel statuses e-mail the recipient automatically, and with which template; `dayBefore`, whether the recipient is e-mailed the day before the estimated delivery day with the day and the expected window; `texts`, which events text the recipient’s mobile (with `accountId`, for that shipper account’s parcels: its own choice where it made one, else the company’s).',
      query: AccountTextsQuerySchema,
      responses: { 200: settings },
    },
    async ({ query }) => json({ settings: await getNotificationSettings(query.accountId) }),
  ),
  PUT: apiHandler(
    {
      role: 'admin',
      body: NotificationSettingsSchema,
      summary: 'Change the automatic e-mail rules (admin)',
      description:
        'Changes the automatic e-mail rules (admin): one rule per status given (statuses not given keep theirs), and the day-before e-mail’s when `dayBefore` is given; `texts` turns the automatic texts on or off by event (those not given keep theirs); with `accountId`, only `texts` is read, for that shipper account’s parcels (404 for an unknown account).',
      bodyExample: {
        rules: [{ status: 'Delivered', enabled: true, template: 'Delivery Confirmation' }],
        dayBefore: { enabled: true, template: 'Delivery Reminder' },
      },
      responses: { 200: settings },
      errors: [404],
    },
    async ({ body, actor }) => json({ settings: await saveAutomaticEmailSettings(body, actor) }),
  ),
});
