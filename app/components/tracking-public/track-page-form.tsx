import { getFormProps, useForm, type FormMetadata, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { FormErrors } from '~/components/ui/field';

/**
 * conform's form for one of the forms under a tracking result (`id` tells them apart on the page):
 * checked in the browser when it is sent, and always on the server.
 */
export function useTrackPageForm<
  S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(id: string, schema: S, lastResult: SubmissionResult<string[]> | null | undefined) {
  return useForm<z.input<S>, z.output<S>>({
    id,
    lastResult,
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/**
 * A plain form under a tracking result, posted to the page and coming back to its section
 * (`#{section}`, labelled by `{section}-heading`), its own errors above it.
 */
export function TrackPageForm<Schema extends Record<string, unknown>>({
  form,
  trackingNumber,
  section,
  className,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  trackingNumber: string;
  section: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <>
      <FormErrors id={form.errorId} errors={form.errors} />
      <form
        method="post"
        action={`/track?number=${encodeURIComponent(trackingNumber)}#${section}`}
        {...getFormProps(form)}
        aria-labelledby={`${section}-heading`}
        className={className}
      >
        {children}
      </form>
    </>
  );
}

/** What a form under a tracking result says once it was taken. */
export function TakenNotice({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="mt-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900"
    >
      {children}
    </p>
  );
}
