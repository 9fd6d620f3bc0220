import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { newParcelDefaults, ParcelForm } from '~/components/parcels/parcel-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { createParcel } from '~/models/parcel.server';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { requireUser } from '~/services/auth.server';
import { redirectWithToast } from '~/services/flash.server';
import { parcelSaveFailed, readParcelForm } from '~/services/parcel-pages.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await readParcelForm(request, ParcelCreateSchema);
  if (form.answer) return form.answer;
  let trackingNumber: string;
  try {
    trackingNumber = (await createParcel(form.data)).trackingNumber;
  } catch (error) {
    return parcelSaveFailed(request, 'create', form, error);
  }
  return redirectWithToast(request, `/dashboard/parcels${new URL(request.url).search}`, {
    type: 'success',
    title: 'Parcel created successfully',
    description: `Tracking number: ${trackingNumber}`,
  });
}

export const meta: MetaFunction = () => [
  { title: 'Create Parcel · Parcels · Management dashboard' },
];

export default function CreateParcelDialog() {
  const result = useActionData<typeof action>();
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels${search}`;
  return (
    <RouteDialog title="Create New Parcel" closeTo={closeTo} size="xl">
      <ParcelForm
        defaults={newParcelDefaults()}
        result={result}
        submitLabel="Create Parcel"
        busyLabel="Creating..."
        cancelTo={closeTo}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
