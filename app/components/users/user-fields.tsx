import { type FieldMetadata } from '@conform-to/react';
import { InputsFromTable, type InputSpec } from '~/components/ui/input-table';
import { USER_ROLES } from '~/schemas/user';
import { SelectFor } from '~/components/ui/conform-fields';

const PROFILE_INPUTS: Array<InputSpec<'name' | 'email'>> = [
  { name: 'name', label: 'Name' },
  { name: 'email', label: 'Email', type: 'email' },
];

/** What an admin sets of a user, on adding them and on their page: name, e-mail and role. */
export function UserProfileFields({
  fields,
}: {
  fields: Record<'name' | 'email' | 'role', FieldMetadata<string | undefined>>;
}) {
  return (
    <>
      <InputsFromTable inputs={PROFILE_INPUTS} of={fields} />
      <SelectFor label="Role" meta={fields.role} options={USER_ROLES} />
    </>
  );
}
