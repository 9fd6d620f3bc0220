import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Form, Link } from '@remix-run/react';
import { Spinner } from './spinner';

/**
 * A form's submit button with its busy label: while `pending` (from `useIsPending`) it shows the
 * spinner and `pendingLabel` (or its own label, when there is none) and cannot be pressed again.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  className = 'btn-primary',
  disabled,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { pending: boolean; pendingLabel?: ReactNode }) {
  return (
    <button type="submit" className={className} disabled={disabled ?? pending} {...props}>
      {pending ? <Spinner /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}

/**
 * A form's closing row: Cancel, a link back to `cancelTo`, then the submit button with its busy
 * label.
 */
export function CancelAndSubmit({
  cancelTo,
  preventScrollReset = true,
  pending,
  pendingLabel,
  submitClassName,
  className = 'flex flex-wrap justify-end gap-3',
  children,
}: {
  cancelTo: string;
  preventScrollReset?: boolean;
  pending: boolean;
  pendingLabel: ReactNode;
  submitClassName?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Link to={cancelTo} preventScrollReset={preventScrollReset} className="btn-secondary">
        Cancel
      </Link>
      <SubmitButton className={submitClassName} pending={pending} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
    </div>
  );
}

/**
 * Enter in a field submits with the form's first submit button: this one, hidden, makes that the
 * form's own submit rather than another button that comes first (Add, Apply, Preview).
 */
export function DefaultSubmit({ children }: { children: ReactNode }) {
  return (
    <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only">
      {children}
    </button>
  );
}

/**
 * A template form's closing row (the e-mail and text templates): whatever comes first
 * (`children`), Reset to default, and the save button; each submits its `intent`.
 */
export function ResetAndSave({
  resetting,
  saving,
  saveLabel,
  children,
}: {
  resetting: boolean;
  saving: boolean;
  saveLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {children}
      <SubmitButton
        name="intent"
        value="reset"
        formNoValidate
        className="btn-danger"
        pending={resetting}
      >
        Reset to default
      </SubmitButton>
      <SubmitButton name="intent" value="save" pending={saving} pendingLabel="Saving...">
        {saveLabel}
      </SubmitButton>
    </div>
  );
}

/**
 * A list row's action on its record (cancel a pickup, redeliver a webhook): a form of its own
 * that posts the record's id as `idField` and the button's `intent`, named for screen readers by
 * `label`.
 */
export function RecordIntentButton({
  action,
  intent,
  idField,
  id,
  label,
  className,
  formClassName,
  children,
}: {
  action: string;
  intent: string;
  idField: string;
  id: string;
  label: string;
  className: string;
  formClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} className={formClassName}>
      <input type="hidden" name={idField} value={id} />
      <button type="submit" name="intent" value={intent} className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}
