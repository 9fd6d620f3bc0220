import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ParcelForm, parcelToFormDefaults } from '~/components/parcels/parcel-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { getParcel } from '~/models/parcel.server';
import { ParcelUpdateFormSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/services/auth.server';
import { redirectWithOutcome } from '~/lib/flash.server';
import { parcelSaveFailed } from '~/services/parcel-pages.server';
import { updateParcel } from '~/services/parcels.server';
import { env } from '~/lib/env.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

function notFound() {
  return json({ message: 'Parcel not found' }, { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const parcel = await getParcel(params.parcelId ?? '');
  if (!parcel) throw notFound();
  return json({ parcel: { ...parcel, events: undefined }, timeZone: env.COMPANY_TIMEZONE });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: ParcelUpdateFormSchema,
    disableAutoCoercion: true,
  });
  // A destination row added or removed without JavaScript is answered with the form as it is now.
  if (submission.status !== 'success') return invalidForm(submission);
  // The form always shows every destination, so no rows means none are left (and the model then
  // gives the parcel its recipient's, as on creation).
  const input = { ...submission.value, destinations: submission.value.destinations ?? [] };
  const listUrl = `/dashboard/parcels${new URL(request.url).search}`;
  let parcel;
  try {
    parcel = await updateParcel(params.parcelId ?? '', input, { user, context });
  } catch (error) {
    return parcelSaveFailed(request, 'update', submission, error);
  }
  return redirectWithOutcome(request, listUrl, parcel, {
    gone: { title: 'Error updating parcel', description: 'The parcel no longer exists.' },
    done: (updated) => ({
      title: 'Parcel updated successfully',
      description: `Tracking number: ${updated.trackingNumber}`,
    }),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

export default function EditParcelDialog() {
  const { parcel, timeZone } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels${search}`;
  return (
    <RouteDialog title={`Edit Parcel: ${parcel.trackingNumber}`} closeTo={closeTo} size="xl">
      <ParcelForm
        mode="edit"
        defaults={parcelToFormDefaults(parcel, timeZone)}
        timeZone={timeZone}
        lastResult={lastResult}
        submitLabel="Update Parcel"
        busyLabel="Updating..."
        cancelTo={closeTo}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
