import { parseWithZod } from '@conform-to/zod/v4';
import { NotificationActionSchema } from '~/schemas/notification';

/**
 * The Notifications tab's Retry and Delete buttons as they post, parsed here so that the tab's
 * page does not load zod in the browser for buttons it never validates there.
 */
export function parseNotificationAction(formData: FormData) {
  return parseWithZod(formData, { schema: NotificationActionSchema });
}
