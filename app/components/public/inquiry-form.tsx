import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { FormErrors } from '~/components/ui/field';
import { HoneypotField } from './honeypot-field';

/**
 * conform's form for a public inquiry (contact, quote): checked in the browser when it is sent,
 * then again on every input, and always on the server.
 */
export function useInquiryForm<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Record<string, string>,
) {
  return useForm({
    lastResult,
    defaultValue,
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** The confirmation shown above a form after it was sent (the page at `?sent=1`). */
export function SentNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      role="status"
      className="mb-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{children}</p>
    </div>
  );
}

/**
 * A public inquiry form: a plain POST to `action` (it works without JavaScript), the honeypot, the
 * form's own errors, its fields and its submit button.
 */
export function InquiryForm({
  form,
  action,
  labelledBy,
  className,
  submitLabel,
  submitClassName,
  children,
}: {
  form: ReturnType<typeof useInquiryForm>[0];
  action: string;
  labelledBy: string;
  className: string;
  submitLabel: string;
  submitClassName: string;
  children: ReactNode;
}) {
  return (
    <form
      method="post"
      action={action}
      {...getFormProps(form)}
      className={className}
      aria-labelledby={labelledBy}
    >
      <HoneypotField />
      <div className="sm:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      {children}
      <div className="sm:col-span-2">
        <button type="submit" className={`${submitClassName} w-full sm:w-auto`}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
