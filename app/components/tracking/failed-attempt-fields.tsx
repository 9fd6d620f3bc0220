import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react';
import { Field, SelectField } from '~/components/ui/field';
import { FAILURE_REASON_CODES, failureReasonLabel } from '~/schemas/constants';

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
      <SelectField
        label="Reason (Failed Delivery)"
        {...getSelectProps(reason)}
        errors={reason.errors}
      >
        <option value="">Choose a reason</option>
        {FAILURE_REASON_CODES.map((code) => (
          <option key={code} value={code}>
            {code === 'other'
              ? 'Other (say what happened in the description)'
              : failureReasonLabel(code)}
          </option>
        ))}
      </SelectField>
      <Field
        label="Next attempt (optional)"
        {...getInputProps(nextAttemptDate, { type: 'date' })}
        errors={nextAttemptDate.errors}
      />
    </div>
  );
}
