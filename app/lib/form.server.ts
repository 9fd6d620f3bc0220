/**
 * The submitted form of a page action. A body that is not a form (JSON, a broken multipart
 * message, no body at all) is the client's mistake: 400, never a 500.
 */
// No form here has a list longer than this; `items[99999].name` would make conform build (and
// the page render) a hundred thousand rows.
const MAX_LIST_INDEX = 200;

export async function readFormData(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    // Cut off at the size limit: the server has already answered 413.
    if (error instanceof Error && error.name === 'PayloadTooLargeError') throw error;
    throw new Response('The request body is not a form submission', {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  for (const name of form.keys()) {
    for (const [, index] of name.matchAll(/\[(\d+)\]/g)) {
      if (Number(index) > MAX_LIST_INDEX)
        throw new Response('The form has a list longer than this page accepts', {
          status: 400,
          headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        });
    }
  }
  return form;
}

/**
 * The first message of a submission that failed, in the order of the schema's fields: what a
 * toast says when a form is answered with a redirect rather than its own page.
 */
export function firstError(
  submission: { error?: Record<string, string[] | null> | null },
  fallback: string,
): string {
  for (const messages of Object.values(submission.error ?? {})) {
    if (messages?.[0]) return messages[0];
  }
  return fallback;
}
