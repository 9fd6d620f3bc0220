import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { newParcelDefaults, ParcelForm } from '~/components/parcels/parcel-form';
import { RouteDialog } from '~/components/ui/route-dialog';
import { ParcelCreateFormSchema } from '~/schemas/parcel';
import { requireUserWithRole } from '~/services/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { parcelSaveFailed } from '~/services/parcel-pages.server';
import { createParcel } from '~/services/parcels.server';
import { env } from '~/lib/env.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return json({ timeZone: env.COMPANY_TIMEZONE });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: ParcelCreateFormSchema,
    disableAutoCoercion: true,
  });
  // A destination row added or removed without JavaScript is answered with the form as it is now.
  if (submission.status !== 'success') return invalidForm(submission);
  let parcel;
  try {
    parcel = await createParcel(submission.value, { user, context });
  } catch (error) {
    return parcelSaveFailed(request, 'create', submission, error);
  }
  const { trackingNumber } = parcel;
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
  const { timeZone } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels${search}`;
  return (
    <RouteDialog title="Create New Parcel" closeTo={closeTo} size="xl">
      <ParcelForm
        mode="create"
        defaults={newParcelDefaults()}
        lastResult={lastResult}
        submitLabel="Create Parcel"
        busyLabel="Creating..."
        cancelTo={closeTo}
        timeZone={timeZone}
      />
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
