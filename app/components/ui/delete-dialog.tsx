import { getFormProps, type FormMetadata } from '@conform-to/react';
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useIsPending } from '~/utils/use-is-pending';
import { FormErrors } from './field';
import { RouteDialog } from './route-dialog';
import { CancelAndSubmit } from './submit-button';

/**
 * A dialog that asks before deleting (`children` say what goes), posting to its own route: Cancel
 * goes back to `closeTo`, the danger button says Deleting... while the form is on its way. With
 * `form`, conform's form whose errors the action may answer.
 */
export function DeleteDialog({
  title,
  closeTo,
  form,
  submitLabel = 'Delete',
  children,
}: {
  title: string;
  closeTo: string;
  form?: FormMetadata<Record<string, unknown>, string[]>;
  submitLabel?: string;
  children: ReactNode;
}) {
  const busy = useIsPending({ state: 'submitting' });
  return (
    <RouteDialog title={title} closeTo={closeTo} size="md">
      <Form method="post" {...(form ? getFormProps(form) : {})} className="space-y-4">
        {form ? <FormErrors id={form.errorId} errors={form.errors} /> : null}
        {children}
        <CancelAndSubmit
          cancelTo={closeTo}
          pending={busy}
          pendingLabel="Deleting..."
          submitClassName="btn-danger"
        >
          {submitLabel}
        </CancelAndSubmit>
      </Form>
    </RouteDialog>
  );
}
