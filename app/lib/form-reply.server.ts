import type { Submission, SubmissionResult } from '@conform-to/react';
import { json, type TypedResponse } from '@remix-run/node';
import { createToastHeaders, type Toast } from './flash.server';

/**
 * How a page action answers a form it did not accept, so that the page shows the form again with
 * what was typed and each message beside its field, with JavaScript or without.
 */
export type FormReply = SubmissionResult<string[]>;
type ReplyOptions = NonNullable<Parameters<Submission<unknown>['reply']>[0]>;

type InvalidFormInit<T> = ReplyOptions & {
  /** 400 unless given (404, 409, 429, 503 for the refusals that are not the visitor's typing). */
  status?: number;
  headers?: HeadersInit;
  /** For an action whose answer carries more than the reply: where the reply goes. */
  into?: (reply: FormReply) => T;
};

/**
 * conform's reply with status 400; 200 for a list's Add or Remove (an intent rather than a
 * submit), which only changes the form. `formErrors` and `fieldErrors` add the server's own
 * refusals to the schema's.
 */
export function invalidForm<T = FormReply>(
  submission: Submission<unknown>,
  { status, headers, into, ...options }: InvalidFormInit<T> = {},
): TypedResponse<T> {
  const reply = submission.reply(options);
  const data = into ? into(reply) : (reply as T);
  return json(data, { status: status ?? (submission.status === undefined ? 200 : 400), headers });
}

/**
 * When saving failed on our side (the database refused or was away): the error is logged, the
 * form keeps what was typed and says `formError`, and the toast shows; 503.
 */
export async function saveFailed(
  request: Request,
  submission: Submission<unknown>,
  error: unknown,
  { formError, toast }: { formError: string; toast: Omit<Toast, 'type'> },
) {
  console.error(`${toast.title}:`, error);
  return invalidForm(submission, {
    formErrors: [formError],
    status: 503,
    headers: await createToastHeaders(request, { type: 'error', ...toast }),
  });
}
