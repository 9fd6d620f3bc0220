import { type FieldMetadata } from '@conform-to/react';
import { FAILURE_REASON_CODES, failureReasonLabel } from '~/schemas/constants';
import { InputFor, SelectFor } from '~/components/ui/conform-fields';

/** A failed delivery's reason (required) and the day of the next attempt (optional). */
export function FailedAttemptFields({
  reason,
  nextAttemptDate,
}: {
  reason: FieldMetadata<string>;
  nextAttemptDate: FieldMetadata<string>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectFor label="Reason (Failed Delivery)" meta={reason}>
        <option value="">Choose a reason</option>
        {FAILURE_REASON_CODES.map((code) => (
          <option key={code} value={code}>
            {code === 'other'
              ? 'Other (say what happened in the description)'
              : failureReasonLabel(code)}
          </option>
        ))}
      </SelectFor>
      <InputFor label="Next attempt (optional)" meta={nextAttemptDate} type="date" />
    </div>
  );
}
