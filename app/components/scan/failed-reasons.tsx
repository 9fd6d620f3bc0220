import type { ReactNode } from 'react';
import { Field } from '~/components/ui/field';
import {
  FAILED_DELIVERY,
  FAILURE_REASON_CODES,
  failureReasonLabel,
} from '~/schemas/event-statuses';

/**
 * At the door, one tap per reason: each button submits its form with `reason`; Other asks what
 * happened (`note`). `children` are the form's own hidden fields.
 */
export function ReasonButtons({
  legend,
  reasons,
  otherLabel,
  children,
}: {
  legend: string;
  reasons: { code: string; label: string }[];
  /** What a screen reader hears for Other. */
  otherLabel: string;
  children?: ReactNode;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-gray-800">{legend}</legend>
      {children}
      <div className="grid grid-cols-2 gap-2">
        {reasons.map(({ code, label }) => (
          <button
            key={code}
            type="submit"
            name="reason"
            value={code}
            className="btn-secondary min-h-11 px-2"
          >
            {label}
          </button>
        ))}
      </div>
      <div className="flex items-end gap-2">
        <Field
          label="Other (say what happened)"
          name="note"
          autoComplete="off"
          className="flex-1"
        />
        <button
          type="submit"
          name="reason"
          value="other"
          className="btn-secondary min-h-11"
          aria-label={otherLabel}
        >
          Other
        </button>
      </div>
    </fieldset>
  );
}

/**
 * At the door: each reason button records the failed attempt at once; Other asks what happened.
 * The scan station's answer and the courier's run draw it inside their own form.
 */
export function FailedReasons({ trackingNumber }: { trackingNumber: string }) {
  return (
    <ReasonButtons
      legend="Failed: why?"
      otherLabel="Failed: other"
      reasons={FAILURE_REASON_CODES.filter((code) => code !== 'other').map((code) => ({
        code,
        label: failureReasonLabel(code),
      }))}
    >
      <input type="hidden" name="trackingNumber" value={trackingNumber} />
      <input type="hidden" name="status" value={FAILED_DELIVERY} />
    </ReasonButtons>
  );
}
