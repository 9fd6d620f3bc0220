import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs } from '@remix-run/node';
import type { z } from 'zod';
import { HONEYPOT_FIELD } from '~/schemas/public-forms';
import { redirectWithToast, type Toast } from './flash.server';
import { invalidForm } from './form-reply.server';
import { readFormData } from './form.server';
import { clientAddress, type RateLimit } from './rate-limit.server';

/**
 * The action of a public form that sends the company something (contact, quote): a filled
 * honeypot is thanked and dropped, bad input is answered with the form, more than the address's
 * share of submissions is a 429 saying `tooMany(minutes)`, and an accepted one is handed to
 * `submit` (with the client address) and answered with a redirect to `sentPath` and its toast.
 */
export async function publicFormAction<S extends z.ZodType<Record<string, unknown>>>(
  { request, context }: Pick<ActionFunctionArgs, 'request' | 'context'>,
  {
    schema,
    limiter,
    tooMany,
    sentPath,
    toast,
    submit,
  }: {
    schema: S;
    limiter: RateLimit;
    tooMany: (minutes: number) => string;
    sentPath: string;
    toast: Toast;
    submit: (input: z.output<S> & { clientAddress: string }) => Promise<unknown>;
  },
) {
  const formData = await readFormData(request);
  if (formData.get(HONEYPOT_FIELD)) return redirectWithToast(request, sentPath, toast);

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== 'success') return invalidForm(submission);

  const address = clientAddress(context);
  const limit = await limiter.hit(address);
  if (!limit.allowed) {
    return invalidForm(submission, {
      formErrors: [tooMany(Math.ceil(limit.retryAfterSeconds / 60))],
      status: 429,
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    });
  }

  await submit({ ...submission.value, clientAddress: address });
  return redirectWithToast(request, sentPath, toast);
}
