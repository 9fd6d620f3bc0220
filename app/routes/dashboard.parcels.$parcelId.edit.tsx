import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ParcelFormDialog, parcelToFormDefaults } from '~/components/parcels/parcel-form';
import { getParcel } from '~/models/parcel.server';
import { ParcelUpdateFormSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/services/auth.server';
import { parcelSaveFailed, redirectAfterParcelChange } from '~/services/parcel-pages.server';
import { updateParcel } from '~/services/parcels.server';
import { recipientTimeZone } from '~/lib/address-time-zone.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

function notFound() {
  return json({ message: 'Parcel not found' }, { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const parcel = await getParcel(params.parcelId ?? '');
  if (!parcel) throw notFound();
  // The window is typed and shown in the recipient's zone.
  return json({ parcel: { ...parcel, events: undefined }, timeZone: recipientTimeZone(parcel) });
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
  let parcel;
  try {
    parcel = await updateParcel(params.parcelId ?? '', input, { user, context });
  } catch (error) {
    return parcelSaveFailed(request, 'update', submission, error);
  }
  return redirectAfterParcelChange(request, 'update', parcel);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

export default function EditParcelDialog() {
  const { parcel, timeZone } = useLoaderData<typeof loader>();
  return (
    <ParcelFormDialog
      title={`Edit Parcel: ${parcel.trackingNumber}`}
      mode="edit"
      defaults={parcelToFormDefaults(parcel, timeZone)}
      timeZone={timeZone}
      lastResult={useActionData<typeof action>()}
      submitLabel="Update Parcel"
      busyLabel="Updating..."
    />
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
