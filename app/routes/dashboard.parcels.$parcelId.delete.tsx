import { useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { DeleteDialog } from '~/components/ui/delete-dialog';
import { useCloseTo } from '~/components/ui/route-dialog';
import { getParcel } from '~/models/parcel-reads.server';
import { ParcelDeleteSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/http/auth.server';
import { deleteParcel } from '~/services/parcels.server';
import { redirectWithToast } from '~/lib/flash.server';
import { parcelListUrl, redirectAfterParcelChange } from '~/http/parcel-pages.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const parcel = await getParcel(params.parcelId ?? '');
  if (!parcel) throw json({ message: 'Parcel not found' }, { status: 404 });
  return json({
    parcel: {
      id: parcel.id,
      trackingNumber: parcel.trackingNumber,
      eventCount: parcel.events?.length ?? 0,
    },
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), { schema: ParcelDeleteSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  let deleted;
  try {
    deleted = await deleteParcel(params.parcelId ?? '', { user, context });
  } catch (error) {
    console.error('Could not delete a parcel:', error);
    return redirectWithToast(request, parcelListUrl(request), {
      type: 'error',
      title: 'Error deleting parcel',
      description: 'Failed to delete parcel. Please try again.',
    });
  }
  return redirectAfterParcelChange(request, 'delete', deleted);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Delete ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

export default function DeleteParcelDialog() {
  const { parcel } = useLoaderData<typeof loader>();
  const [form] = useForm({ lastResult: useActionData<typeof action>() });
  return (
    <DeleteDialog title="Delete Parcel" closeTo={useCloseTo('/dashboard/parcels')} form={form}>
      <p className="text-gray-700">
        Are you sure you want to delete parcel{' '}
        <span className="font-mono font-semibold">{parcel.trackingNumber}</span>? This will also
        delete all associated tracking events
        {parcel.eventCount ? ` (${parcel.eventCount})` : ''}. This action cannot be undone.
      </p>
    </DeleteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
