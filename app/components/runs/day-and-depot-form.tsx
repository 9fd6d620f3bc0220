import { Form } from '@remix-run/react';
import { Field, SelectField } from '~/components/ui/field';

/**
 * The GET form of a page about one day at a depot (Dispatch, Pickups): the day, the depot, and
 * Show; `none` is the words of the depot choice left empty. Not printed: the page's sheet is.
 */
export function DayAndDepotForm({
  date,
  depotId,
  depots,
  none,
}: {
  date: string;
  depotId: string;
  depots: { id: string; name: string }[];
  none: string;
}) {
  return (
    <Form method="get" className="card flex flex-wrap items-end gap-3 p-4 print:hidden">
      <Field label="Day" name="date" type="date" defaultValue={date} required />
      <SelectField
        label="Depot"
        name="depot"
        defaultValue={depotId}
        options={[
          { value: '', label: none },
          ...depots.map((d) => ({ value: d.id, label: d.name })),
        ]}
      />
      <button type="submit" className="btn-secondary min-h-11">
        Show
      </button>
    </Form>
  );
}
