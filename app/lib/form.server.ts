import { json } from '@remix-run/node';

/**
 * The submitted form of a page action. A body that is not a form (JSON, a broken multipart
 * message, no body at all), or one no page of ours could have sent, is the client's mistake: 400
 * with a message the page's error boundary shows (`{error, message, code}`, as the API answers),
 * never a 500. What no page sends: more than MAX_FORM_FIELDS fields, a field name nested deeper
 * than MAX_FIELD_NAME_DEPTH (conform builds an object as deep as the name, and rendering the form
 * again walks it), a list index past MAX_LIST_INDEX (conform would build, and the page render,
 * that many rows).
 */
export const MAX_FORM_FIELDS = 1000;
export const MAX_FIELD_NAME_DEPTH = 32;
const MAX_LIST_INDEX = 200;

function refuse(message: string): never {
  throw json({ error: message, message, code: 'malformed_form' }, { status: 400 });
}

export async function readFormData(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    // Cut off at the size limit: the server has already answered 413.
    if (error instanceof Error && error.name === 'PayloadTooLargeError') throw error;
    refuse('The request body is not a form submission');
  }
  let fields = 0;
  for (const name of form.keys()) {
    if (++fields > MAX_FORM_FIELDS)
      refuse(`The form has more than ${MAX_FORM_FIELDS} fields, more than any page here sends`);
    if (name.split(/[.[]/).length > MAX_FIELD_NAME_DEPTH)
      refuse('The form has a field name nested deeper than any page here sends');
    for (const [, index] of name.matchAll(/\[(\d+)\]/g)) {
      if (Number(index) > MAX_LIST_INDEX)
        refuse('The form has a list longer than this page accepts');
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
