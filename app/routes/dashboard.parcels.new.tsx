import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { newParcelDefaults, ParcelForm } from '~/components/parcels/parcel-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { createParcel } from '~/models/parcel.server';
import {
  applyDestinationIntent,
  formFieldErrors,
  ParcelCreateSchema,
  parcelFormToInput,
} from '~/schemas/parcel';
import { requireUser } from '~/services/auth.server';
import { createToastHeaders, redirectWithToast } from '~/services/flash.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await request.formData();
  const values = parcelFormToInput(formData);
  const revision = crypto.randomUUID();
  if (applyDestinationIntent(values, formData.get('intent'))) {
    return json({ values, fieldErrors: {}, formErrors: [], revision });
  }
  const result = ParcelCreateSchema.safeParse(values);
  if (!result.success) {
    return json(
      { values, fieldErrors: formFieldErrors(result.error), formErrors: [], revision },
      { status: 400 },
    );
  }
  let trackingNumber: string;
  try {
    trackingNumber = (await createParcel(result.data)).trackingNumber;
  } catch (error) {
    console.error('Could not create a parcel:', error);
    return json(
      {
        values,
        fieldErrors: {},
        formErrors: ['Failed to create parcel. Please try again.'],
        revision,
      },
      {
        status: 503,
        headers: await createToastHeaders(request, {
          type: 'error',
          title: 'Error creating parcel',
          description: 'Failed to create parcel. Please try again.',
        }),
      },
    );
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
