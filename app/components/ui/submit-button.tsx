import type { ButtonHTMLAttributes, ReactNode } from 'react';
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
