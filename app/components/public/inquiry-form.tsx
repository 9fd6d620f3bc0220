import { ERROR_SUMMARY_ID, ErrorSummary, refusedFields } from '~/components/ui/error-summary';
import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode, TextareaHTMLAttributes } from 'react';
import type { z } from 'zod';
import { Field, FormErrors, TextareaField } from '~/components/ui/field';
import { HoneypotField } from './honeypot-field';
import { usePageText } from './page-text';
import { usePublicMessages } from './public-messages';

/**
 * conform's form for a public inquiry (contact, quote): checked in the browser when it is sent,
 * then again on every input, and always on the server; which fields are required comes from the
 * schema.
 */
export function useInquiryForm<S extends z.ZodType<Record<string, unknown>>>(
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Record<string, string>,
) {
  return useForm({
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/**
 * How the inquiry forms ask for each of their text fields: in English here, and in the page's
 * language under `inquiry.<name>` (and `inquiry.<name>Placeholder`) in the pages' messages.
 */
const INQUIRY_INPUTS: Record<
  string,
  {
    label: string;
    type?: 'email' | 'tel';
    autoComplete?: string;
    maxLength: number;
    placeholder?: string;
  }
> = {
  firstName: { label: 'First name', autoComplete: 'given-name', maxLength: 80 },
  lastName: { label: 'Last name', autoComplete: 'family-name', maxLength: 80 },
  name: { label: 'Name', autoComplete: 'name', maxLength: 120 },
  email: { label: 'Email', type: 'email', autoComplete: 'email', maxLength: 254 },
  phone: { label: 'Phone', type: 'tel', autoComplete: 'tel', maxLength: 30 },
  company: { label: 'Company', autoComplete: 'organization', maxLength: 150 },
  subject: { label: 'Subject', maxLength: 150 },
  origin: { label: 'Origin', maxLength: 150, placeholder: 'City and country you ship from' },
  destination: {
    label: 'Destination',
    maxLength: 150,
    placeholder: 'Cities, countries or regions you ship to',
  },
};

type InquiryMeta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>;

/** A field's label in the page's language, which says when the schema lets it be left empty. */
function useInquiryLabel() {
  const { t } = usePageText();
  return {
    t,
    label: (name: string, english: string, meta: InquiryMeta) => {
      const label = t(`inquiry.${name}`, { defaultValue: english });
      return meta.required ? label : t('inquiry.optional', { label });
    },
  };
}

const INQUIRY_REFUSALS: Record<string, string> = {
  'Enter a valid phone number': 'inquiry.errors.phone',
  'Choose a plan': 'inquiry.errors.plan',
  'Choose how many shipments you send per month': 'inquiry.errors.volume',
};

/**
 * The inquiry schemas' refusals (in English, as the API keeps them) in the page's language: the
 * shared ones (`usePublicMessages`), then "<label> is required", "<label> must be at most/least
 * N characters" with the field's label in that language, then the forms' own.
 */
export function useInquiryMessages() {
  const { t } = usePageText();
  const { message: shared } = usePublicMessages();
  const labelled = (english: string) => {
    const name =
      english === 'Message'
        ? 'message'
        : Object.keys(INQUIRY_INPUTS).find((key) => INQUIRY_INPUTS[key]!.label === english);
    return name ? t(`inquiry.${name}`, { defaultValue: english }) : null;
  };
  const message = (text: string) => {
    const known = shared(text);
    if (known !== text) return known;
    const required = /^(.+) is required$/.exec(text);
    const label = required && labelled(required[1]!);
    if (label) return t('inquiry.errors.required', { label });
    const length = /^(.+) must be at (most|least) (\d+) characters$/.exec(text);
    const named = length && labelled(length[1]!);
    if (named)
      return t(length[2] === 'most' ? 'inquiry.errors.max' : 'inquiry.errors.min', {
        label: named,
        count: length[3]!,
      });
    const key = INQUIRY_REFUSALS[text];
    return key ? t(key) : text;
  };
  return { message, messages: (list: string[] | undefined) => list?.map(message) };
}

/**
 * Labelled text fields of an inquiry form, each as INQUIRY_INPUTS asks for it, or its message: a
 * text of up to 5,000 characters across the form.
 */
export function InquiryFields({
  of,
  className,
  message,
}: {
  of: InquiryMeta[];
  className?: string;
  message?: Pick<TextareaHTMLAttributes<HTMLTextAreaElement>, 'rows' | 'minLength' | 'placeholder'>;
}) {
  const { t, label: inquiryLabel } = useInquiryLabel();
  const { messages } = useInquiryMessages();
  return of.map((meta) => {
    if (message) {
      const { key, ...props } = getTextareaProps(meta);
      return (
        <TextareaField
          key={`${meta.name}-${key ?? ''}`}
          className="sm:col-span-2"
          label={inquiryLabel('message', 'Message', meta)}
          {...message}
          {...props}
          maxLength={5000}
          errors={messages(meta.errors)}
        />
      );
    }
    const { type = 'text', label, placeholder, ...input } = INQUIRY_INPUTS[meta.name];
    // conform's key changes when the form is reset, which starts the input afresh.
    const { key, ...props } = getInputProps(meta, { type });
    return (
      <Field
        key={`${meta.name}-${key ?? ''}`}
        className={className}
        label={inquiryLabel(meta.name, label, meta)}
        {...props}
        {...input}
        placeholder={
          placeholder && t(`inquiry.${meta.name}Placeholder`, { defaultValue: placeholder })
        }
        errors={messages(meta.errors)}
      />
    );
  });
}

/**
 * What the server refused of an inquiry form, first on the page: a link to each field it refused,
 * and the form's own errors.
 */
export function InquiryErrorSummary({
  form,
  fields,
  lastResult,
}: {
  form: ReturnType<typeof useInquiryForm>[0];
  fields: Record<string, { id: string; errors?: string[] }>;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = usePageText();
  const { messages } = useInquiryMessages();
  const names = refusedFields(lastResult);
  // conform's fields can only be read by name.
  const inLanguage = Object.fromEntries(
    names.flatMap((name) => {
      const field = fields[name];
      return field ? [[name, { id: field.id, errors: messages(field.errors) }]] : [];
    }),
  );
  return (
    <ErrorSummary
      fields={inLanguage}
      names={names}
      formErrors={messages(form.errors)}
      formId={form.id}
      heading={t('inquiry.errors.problem')}
    />
  );
}

/**
 * The confirmation shown above a form after it was sent (the page at `?sent=1#sent`: the fragment
 * brings it into view on a phone, as `#errors` does for a refused form).
 */
function SentNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      id="sent"
      tabIndex={-1}
      role="status"
      className="mb-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{children}</p>
    </div>
  );
}

/**
 * A public inquiry form: a plain POST to its page, `/{name}#errors`, keeping `?lang=` (it works
 * without JavaScript; a refused form comes back scrolled to the page's error summary, see
 * ErrorSummary), labelled by the page's `{name}-form-heading`, with the honeypot, the form's own
 * errors, its fields and its submit button; above it, once it was sent, the `sent` notice.
 */
export function InquiryForm({
  form,
  name,
  submitLabel,
  className = '',
  submitClassName = 'btn-primary',
  sent,
  children,
}: {
  form: ReturnType<typeof useInquiryForm>[0];
  name: string;
  submitLabel: string;
  className?: string;
  submitClassName?: string;
  sent?: { title: string; text: string } | false;
  children: ReactNode;
}) {
  const { messages } = useInquiryMessages();
  const { href } = usePageText();
  return (
    <>
      {sent ? <SentNotice title={sent.title}>{sent.text}</SentNotice> : null}
      <form
        method="post"
        action={`${href(`/${name}`)}#${ERROR_SUMMARY_ID}`}
        {...getFormProps(form)}
        className={`relative grid gap-5 sm:grid-cols-2 ${className}`.trim()}
        aria-labelledby={`${name}-form-heading`}
      >
        <HoneypotField />
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={messages(form.errors)} />
        </div>
        {children}
        <div className="sm:col-span-2">
          <button type="submit" className={`${submitClassName} w-full sm:w-auto`}>
            {submitLabel}
          </button>
        </div>
      </form>
    </>
  );
}
