/**
 * After a form came back refused, a summary at the top of the page that links to each field in
 * error. Public pages run no script, so nothing can move focus after the reload: the form posts
 * to its page with `#errors`, and the browser scrolls to this summary, placed first in <main>,
 * and starts keyboard navigation from it (tabIndex -1 lets it take the fragment's focus). A
 * successful post redirects to a page without the summary, where the fragment names nothing.
 */
export const ERROR_SUMMARY_ID = 'errors';

type FieldLike = { id: string; errors?: string[] | undefined };

/** The names of the fields a refused submission has errors for. */
export function refusedFields(
  lastResult: { error?: Record<string, unknown> | null } | undefined | null,
) {
  return Object.keys(lastResult?.error ?? {}).filter(Boolean);
}

export function ErrorSummary({
  fields,
  names,
  formErrors,
  formId,
  heading = 'There is a problem with what you sent',
}: {
  fields: Record<string, FieldLike>;
  /** The fields the server refused (conform's fields can only be read by name). */
  names: string[];
  formErrors?: string[] | undefined;
  formId: string;
  /** The summary's heading, in the page's language on a public page. */
  heading?: string;
}) {
  const entries = names
    .map((name) => [name, fields[name]] as const)
    .filter((entry): entry is readonly [string, FieldLike] => !!entry[1]?.errors?.length);
  if (!entries.length && !formErrors?.length) return null;
  return (
    <div
      id={ERROR_SUMMARY_ID}
      tabIndex={-1}
      role="alert"
      aria-labelledby="errors-heading"
      className="mx-auto mt-4 max-w-7xl scroll-mt-4 px-4"
    >
      <div className="rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
        <h2 id="errors-heading" className="font-bold">
          {heading}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {formErrors?.map((message) => (
            <li key={message}>
              <a href={`#${formId}`} className="underline">
                {message}
              </a>
            </li>
          ))}
          {entries.map(([name, field]) => (
            <li key={name}>
              <a href={`#${field.id}`} className="underline">
                {field.errors![0]}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
