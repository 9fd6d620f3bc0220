import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { StatusBadge } from '~/components/parcels/status-badge';
import { DeleteDialog } from '~/components/ui/delete-dialog';
import { getParcelsByIds } from '~/models/parcel-reads.server';
import { ParcelBulkDeleteFormSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { firstError, readFormData } from '~/lib/form.server';
import { deleteParcels, someNumbers } from '~/services/parcel-bulk.server';
import { parcelListHref } from '~/utils/parcel-list-href';

/**
 * GET /dashboard/parcels/delete?ids=…&back=… — the confirmation of the table's "Delete selected":
 * it lists the parcels that will go. Its form posts their ids back here (staff role).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const url = new URL(request.url);
  const back = parcelListHref(url.searchParams.get('back'));
  const selection = parseWithZod(url.searchParams, { schema: ParcelBulkDeleteFormSchema });
  if (selection.status !== 'success') {
    throw await redirectWithToast(request, back, {
      type: 'error',
      title: 'Nothing deleted',
      description: `${firstError(selection, 'Select parcels')}.`,
    });
  }
  const parcels = await getParcelsByIds(selection.value.ids);
  if (!parcels.length) {
    throw await redirectWithToast(request, back, {
      type: 'error',
      title: 'Nothing deleted',
      description: 'The selected parcels no longer exist.',
    });
  }
  return json({
    back,
    parcels: parcels.map((p) => ({
      id: p.id,
      trackingNumber: p.trackingNumber,
      recipient: p.recipient.name,
      status: p.status,
    })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: ParcelBulkDeleteFormSchema });
  const given = form.get('back');
  const back = parcelListHref(typeof given === 'string' ? given : null);
  if (submission.status !== 'success') {
    return redirectWithToast(request, back, {
      type: 'error',
      title: 'Nothing deleted',
      description: `${firstError(submission, 'Select parcels')}.`,
    });
  }
  const result = await deleteParcels(submission.value.ids, { user, context });
  const gone = result.missing.length ? ` ${result.missing.length} no longer existed.` : '';
  if (result.failed.length) {
    return redirectWithToast(request, back, {
      type: 'error',
      title: `${result.failed.length} parcel${result.failed.length === 1 ? '' : 's'} could not be deleted`,
      description: `Deleted: ${result.done.length ? someNumbers(result.done) : 'none'}.${gone} Please try again.`,
    });
  }
  const count = result.done.length;
  return redirectWithToast(request, back, {
    type: count ? 'success' : 'error',
    title: count ? `${count} parcel${count === 1 ? '' : 's'} deleted` : 'Nothing deleted',
    description: `${count ? `Tracking numbers: ${someNumbers(result.done)}.` : ''}${gone}`.trim(),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Delete ${data?.parcels.length ?? ''} selected parcels · Parcels · Management dashboard`,
  },
];

export default function DeleteSelectedParcelsDialog() {
  const { parcels, back } = useLoaderData<typeof loader>();
  const count = parcels.length;
  const noun = `${count} parcel${count === 1 ? '' : 's'}`;
  return (
    <DeleteDialog title={`Delete ${noun}`} closeTo={back} submitLabel={`Delete ${noun}`}>
      <input type="hidden" name="back" value={back.replace(/^[^?]*/, '')} />
      {parcels.map((p) => (
        <input key={p.id} type="hidden" name="ids" value={p.id} />
      ))}
      <p className="text-gray-700">
        {count === 1
          ? 'Are you sure you want to delete this parcel? Its tracking events are deleted with it.'
          : `Are you sure you want to delete these ${noun}? Their tracking events are deleted with them.`}{' '}
        This action cannot be undone.
      </p>
      <ul
        aria-label="Parcels to delete"
        className="max-h-64 divide-y divide-gray-200 overflow-y-auto rounded-md border border-gray-200 text-sm"
      >
        {parcels.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
            <span>
              <span className="font-mono font-semibold">{p.trackingNumber}</span>
              {p.recipient ? <span className="text-gray-600"> · {p.recipient}</span> : null}
            </span>
            <StatusBadge status={p.status} />
          </li>
        ))}
      </ul>
    </DeleteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
