import { useTranslation } from 'react-i18next';
import { getFormProps, useForm, type FormMetadata, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { useLocation } from '@remix-run/react';
import { FormErrors } from '~/components/ui/field';
import { usePublicMessages } from '~/components/public/public-messages';
import { keepLanguage } from '~/utils/page-language';

/**
 * The form of a section under a tracking result, checked in the browser as on the server; the
 * page posts it to its own URL and comes back to the section.
 */
export function useResultSectionForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  id: string,
  lastResult: SubmissionResult<string[]> | null | undefined,
  schema: Schema,
  defaultValue?: Record<string, string>,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** A card under a tracking result, reached at `#section` and named by its heading. */
export function ResultSection({ section, children }: { section: string; children: ReactNode }) {
  return (
    <section id={section} aria-labelledby={`${section}-heading`} className="card mt-6 p-5">
      {children}
    </section>
  );
}

/** The section's form: its errors first, then the form, which comes back to `#section`. */
export function ResultSectionForm<Schema extends Record<string, unknown>>({
  section,
  trackingNumber,
  form,
  className,
  children,
  query = {},
}: {
  section: string;
  trackingNumber: string;
  /** More of the page's URL to keep (the recipient's proof link). */
  query?: Record<string, string>;
  form: FormMetadata<Schema, string[]>;
  className: string;
  children: ReactNode;
}) {
  const { messages } = usePublicMessages();
  const { search } = useLocation();
  const { i18n } = useTranslation();
  return (
    <>
      <FormErrors id={form.errorId} errors={messages(form.errors)} />
      <form
        method="post"
        action={keepLanguage(
          `/track?${new URLSearchParams({ number: trackingNumber, ...query })}#${section}`,
          search,
        )}
        {...getFormProps(form)}
        aria-labelledby={`${section}-heading`}
        className={className}
      >
        {/* The language the visitor reads the page in: their e-mails are written in it. */}
        <input type="hidden" name="lang" value={i18n.language} />
        {children}
      </form>
    </>
  );
}

/** What the section's form did, said once it is done. */
export function SectionConfirmation({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="mt-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900"
    >
      {children}
    </p>
  );
}
