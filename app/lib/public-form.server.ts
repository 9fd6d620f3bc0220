import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs } from '@remix-run/node';
import type { z } from 'zod';
import { HONEYPOT_FIELD } from '~/schemas/public-forms';
import { keepLanguage } from '~/utils/page-language';
import { redirectWithToast } from './flash.server';
import { invalidForm } from './form-reply.server';
import { readFormData } from './form.server';
import { formLanguage, translator } from './i18n.server';
import { clientAddress, type RateLimit } from './rate-limit.server';

/**
 * The action of a public form that sends the company something (contact, quote): a filled
 * honeypot is thanked and dropped, bad input is answered with the form, more than the address's
 * share of submissions is a 429 saying `<page>.tooMany`, and an accepted one is handed to
 * `submit` (with the client address) and answered with a redirect to `sentPath` and the toast
 * `<page>.sentToast`: both in the language the form was filled in (the `pages` messages), and a
 * language chosen in the page's address kept in the one it leads to.
 */
export async function publicFormAction<S extends z.ZodType<Record<string, unknown>>>(
  { request, context }: Pick<ActionFunctionArgs, 'request' | 'context'>,
  {
    schema,
    limiter,
    page,
    sentPath,
    submit,
  }: {
    schema: S;
    limiter: RateLimit;
    /** Where its words are in the `pages` messages: `contact`, `quote`. */
    page: string;
    sentPath: string;
    submit: (input: z.output<S> & { clientAddress: string }) => Promise<unknown>;
  },
) {
  const formData = await readFormData(request);
  const t = translator(await formLanguage(request, formData), 'pages');
  const thanked = () =>
    redirectWithToast(request, keepLanguage(sentPath, new URL(request.url).search), {
      type: 'success',
      title: t(`${page}.sentToast.title`),
      description: t(`${page}.sentToast.description`),
    });
  if (formData.get(HONEYPOT_FIELD)) return thanked();

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return invalidForm(submission);

  const address = clientAddress(context);
  const limit = await limiter.hit(address);
  if (!limit.allowed) {
    return invalidForm(submission, {
      formErrors: [t(`${page}.tooMany`, { minutes: Math.ceil(limit.retryAfterSeconds / 60) })],
      status: 429,
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  }

  await submit({ ...submission.value, clientAddress: address });
  return thanked();
}
