import {
  getFormProps,
  useForm,
  type DefaultValue,
  type FormMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { CardSection } from '~/components/ui/card-section';
import { FormErrors } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { useLazyValidation } from '~/utils/use-lazy-validation';

/**
 * The form of a settings page that adds a record shown with its secret once (an API key, a
 * webhook): conform's form checked with the action's schema (imported by `loadSchema` once the
 * page is interactive, see useLazyValidation), the reply the action gave, whether it is on its
 * way, and what the action created (its `created`).
 */
export function useCreateForm<S extends z.ZodObject, Created>({
  id,
  loadSchema,
  defaultValue,
  action,
  intent,
}: {
  id: string;
  loadSchema: () => Promise<S>;
  defaultValue: DefaultValue<z.input<S>>;
  /** The page's own URL, where the form posts. */
  action: string;
  /** The form's `intent`, when the page's action has others. */
  intent?: string;
}) {
  // The action's answer, as the page's action gives it (its `result` and what it `created`).
  const actionData = useActionData() as
    { result?: SubmissionResult<string[]>; created?: Created | null } | undefined;
  const navigation = useNavigation();
  const onValidate = useLazyValidation(loadSchema);
  const [form, fields] = useForm<z.input<S>, z.output<S>>({
    id,
    lastResult: navigation.state === 'idle' ? actionData?.result : null,
    defaultValue,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate,
  });
  const creating = useIsPending({
    formAction: action,
    state: 'submitting',
    ...(intent ? { formData: { intent } } : {}),
  });
  return { form, fields, creating, intent, action, created: actionData?.created ?? null };
}

/** The card that holds the form: its errors, its fields and the button that creates. */
export function CreateSection<Schema extends Record<string, unknown>>({
  headingId,
  title,
  form: { form, creating, intent, action },
  submitLabel,
  children,
}: {
  headingId: string;
  title: string;
  form: {
    form: FormMetadata<Schema, string[]>;
    creating: boolean;
    intent?: string;
    action: string;
  };
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <CardSection headingId={headingId} title={title}>
      <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        {children}
        <SubmitButton
          {...(intent ? { name: 'intent', value: intent } : {})}
          pending={creating}
          pendingLabel="Creating..."
        >
          {submitLabel}
        </SubmitButton>
      </Form>
    </CardSection>
  );
}
