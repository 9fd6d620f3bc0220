import { Field } from '~/components/ui/field';
import {
  FAILED_DELIVERY,
  FAILURE_REASON_CODES,
  failureReasonLabel,
} from '~/schemas/event-statuses';

/**
 * At the door: each reason button records the failed attempt at once; Other asks what happened.
 * The scan station's answer and the courier's run draw it inside their own form.
 */
export function FailedReasons({ trackingNumber }: { trackingNumber: string }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-gray-800">Failed: why?</legend>
      <input type="hidden" name="trackingNumber" value={trackingNumber} />
      <input type="hidden" name="status" value={FAILED_DELIVERY} />
      <div className="grid grid-cols-2 gap-2">
        {FAILURE_REASON_CODES.filter((code) => code !== 'other').map((code) => (
          <button
            key={code}
            type="submit"
            name="reason"
            value={code}
            className="btn-secondary min-h-11 px-2"
          >
            {failureReasonLabel(code)}
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
          aria-label="Failed: other"
        >
          Other
        </button>
      </div>
    </fieldset>
  );
}
