import { useNavigate, useSubmit } from '@remix-run/react';
import type { FormEvent } from 'react';
import { DIALOG_FRAGMENT } from '~/utils/dialog-fragment';
import { PARCEL_STATUSES } from '~/schemas/constants';
import { LABEL_PAPER_NAMES, LABEL_PAPERS, MAX_LABELS_PER_SHEET } from '~/schemas/label';
import { useHydrated } from '~/utils/use-hydrated';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { SelectOptions } from '~/components/ui/field';

/** The bulk form's id: the table's row checkboxes belong to it through their `form` attribute. */
export const BULK_FORM_ID = 'parcel-bulk';

/** The row checkboxes of the bulk form on this page. */
export function bulkCheckboxes(): HTMLInputElement[] {
  return [
    ...document.querySelectorAll<HTMLInputElement>(`input[name="ids"][form="${BULK_FORM_ID}"]`),
  ];
}

/**
 * What can be done with the rows ticked in the table. One real form, so every action works
 * without JavaScript: its buttons pick where it goes — the label sheet (GET, a new tab), the CSV
 * export (GET, a download), the delete confirmation (GET) or the status change (POST to the list).
 * `back` carries the list's query so each action returns to the same filters and page.
 * With JavaScript the status change and the confirmation stay in the app (no full page load), and
 * the buttons wait until something is ticked. The server checks the role of every action: viewers
 * get the labels and the export only.
 */
export function ParcelBulkActions({
  search,
  canEdit,
  selected,
}: {
  /** The list's query string (`?…` or ''). */
  search: string;
  canEdit: boolean;
  /** How many rows are ticked; known only with JavaScript. */
  selected: number;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigate = useNavigate();
  const listAction = `/dashboard/parcels${search}`;
  const changing = useIsPending({ formAction: listAction, formData: { intent: 'status' } });
  const none = hydrated && selected === 0;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const kind = submitter?.dataset.bulk;
    const data = new FormData(event.currentTarget, submitter);
    const ids = data.getAll('ids').map(String);
    if (kind === 'status') {
      event.preventDefault();
      submit(data, { method: 'post', action: listAction, preventScrollReset: true });
    } else if (kind === 'delete') {
      event.preventDefault();
      const params = new URLSearchParams(ids.map((id) => ['ids', id]));
      if (search) params.set('back', search);
      navigate(`/dashboard/parcels/delete?${params}${DIALOG_FRAGMENT}`, {
        preventScrollReset: true,
      });
    }
    // The label sheet and the export are files: the browser fetches them as without JavaScript.
  }

  return (
    <form
      id={BULK_FORM_ID}
      method="get"
      action="/dashboard/parcels/labels.pdf"
      aria-label="Selected parcels"
      className="card flex flex-wrap items-end gap-3 p-3 text-sm"
      onSubmit={onSubmit}
    >
      <input type="hidden" name="back" value={search} />
      <p className="basis-full text-gray-700 sm:basis-auto sm:self-center" aria-live="polite">
        {hydrated ? `${selected} selected` : 'With the ticked parcels:'}
      </p>
      <div className="flex items-end gap-2">
        <div>
          <label htmlFor="bulk-paper" className="block text-xs font-semibold text-gray-600">
            Paper
          </label>
          <select id="bulk-paper" name="paper" defaultValue="a4" className="field-input py-1">
            {LABEL_PAPERS.map((paper) => (
              <option key={paper} value={paper}>
                {LABEL_PAPER_NAMES[paper]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          data-bulk="labels"
          formAction="/dashboard/parcels/labels.pdf"
          formMethod="get"
          formTarget="_blank"
          className="btn-secondary"
          disabled={none}
          title={`Two 4×6 in labels a page, up to ${MAX_LABELS_PER_SHEET} parcels`}
        >
          Print labels
        </button>
      </div>
      <button
        type="submit"
        data-bulk="export"
        formAction="/dashboard/parcels/export.csv"
        formMethod="get"
        className="btn-secondary"
        disabled={none}
      >
        Export selected
      </button>
      {canEdit ? (
        <>
          <div className="flex items-end gap-2">
            <div>
              <label htmlFor="bulk-status" className="block text-xs font-semibold text-gray-600">
                New status
              </label>
              <select
                id="bulk-status"
                name="newStatus"
                defaultValue=""
                className="field-input py-1"
              >
                <option value="">Choose…</option>
                <SelectOptions options={PARCEL_STATUSES} />
              </select>
            </div>
            <SubmitButton
              name="intent"
              value="status"
              data-bulk="status"
              formAction={listAction}
              formMethod="post"
              className="btn-secondary"
              pending={changing}
              disabled={none || changing}
            >
              Change status
            </SubmitButton>
          </div>
          <button
            type="submit"
            data-bulk="delete"
            formAction={`/dashboard/parcels/delete${DIALOG_FRAGMENT}`}
            formMethod="get"
            className="btn-danger"
            disabled={none}
          >
            Delete selected
          </button>
        </>
      ) : null}
    </form>
  );
}
