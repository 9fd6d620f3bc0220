import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { getWebhook, listDeliveries, webhookOwnedBy } from '~/models/webhook.server';
import {
  WebhookCreateSchema,
  WebhookDeleteSchema,
  WebhookEditFormSchema,
  WebhookRedeliverSchema,
} from '~/schemas/integrations';
import { redirectWithToast } from '~/lib/flash.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import type { Actor } from '~/services/audit.server';
import { addWebhook, deleteWebhook, updateWebhook } from '~/services/integrations.server';
import { redeliver, RedeliveryConflict, webhookUrlProblem } from '~/services/webhooks.server';
import { pageFrom } from '~/utils/list-page';

/**
 * The webhooks pages' loaders and actions, the company's (Settings → Webhooks) and a shipper
 * account's (the portal's Webhooks), through the same service as /api/webhooks. `accountId` is
 * whose endpoints a page shows: another's endpoint is not found there.
 */
const DELIVERIES_PER_PAGE = 20;

/** Adds an endpoint; its signing secret is in this answer only. */
export async function createWebhookAction(formData: FormData, actor: Actor) {
  const submission = parseWithZod(formData, { schema: WebhookCreateSchema });
  const into = (result: FormReply) => ({ created: null, result });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const problem = await webhookUrlProblem(submission.value.url);
  if (problem) return invalidForm(submission, { fieldErrors: { url: [problem] }, into });
  const created = await addWebhook(submission.value, actor);
  // No toast: it would show on the page after this one; the panel with the secret says it.
  return json({ created, result: submission.reply({ resetForm: true }) });
}

/** The endpoint the page names, if it is `accountId`'s (null: the company's); else a 404. */
export async function loadWebhook(id: string | undefined, accountId: string | null) {
  const webhook = id && (await webhookOwnedBy(id, accountId)) ? await getWebhook(id) : null;
  if (!webhook) throw json({ message: 'Webhook not found' }, { status: 404 });
  return webhook;
}

/** One endpoint's page: the endpoint, a page of its deliveries, and whether `?delete` asks. */
export async function webhookPageData(
  request: Request,
  id: string | undefined,
  accountId: string | null,
) {
  const webhook = await loadWebhook(id, accountId);
  const url = new URL(request.url);
  const { deliveries, pagination } = await listDeliveries(webhook.id, {
    page: pageFrom(url),
    limit: DELIVERIES_PER_PAGE,
  });
  return { webhook, deliveries, pagination, confirmDelete: url.searchParams.has('delete') };
}

/** One endpoint's forms: edit, delete (back to the list) and redeliver one of its deliveries. */
export async function webhookPageAction(
  request: Request,
  formData: FormData,
  {
    id,
    accountId,
    listPath,
    actor,
  }: { id: string | undefined; accountId: string | null; listPath: string; actor: Actor },
) {
  const webhook = await loadWebhook(id, accountId);
  const here = `${listPath}/${webhook.id}`;
  const intent = formData.get('intent');

  if (intent === 'delete') {
    const submission = parseWithZod(formData, { schema: WebhookDeleteSchema });
    if (submission.status !== 'success') return invalidForm(submission);
    await deleteWebhook(webhook.id, actor);
    return redirectWithToast(request, listPath, {
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
  await updateWebhook(webhook.id, submission.value, actor);
  return redirectWithToast(request, here, {
    type: 'success',
    title: 'Webhook updated',
    description: submission.value.url,
  });
}
