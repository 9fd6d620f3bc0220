import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { newParcelDefaults, ParcelFormDialog } from '~/components/parcels/parcel-form';
import { ParcelCreateFormSchema } from '~/schemas/parcel';
import { listAccountNames } from '~/models/account.server';
import { requireUserWithRole } from '~/http/auth.server';
import { parcelSaveFailed, redirectAfterParcelChange } from '~/http/parcel-pages.server';
import { createParcel } from '~/services/parcels.server';
import { env } from '~/lib/env.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  return json({
    timeZone: env.COMPANY_TIMEZONE,
    accounts: await listAccountNames({ activeOnly: true }),
  });
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
  return redirectAfterParcelChange(request, 'create', parcel);
}

export const meta: MetaFunction = () => [
  { title: 'Create Parcel · Parcels · Management dashboard' },
];

export default function CreateParcelDialog() {
  return (
    <ParcelFormDialog
      title="Create New Parcel"
      mode="create"
      defaults={newParcelDefaults()}
      {...useLoaderData<typeof loader>()}
      lastResult={useActionData<typeof action>()}
      submitLabel="Create Parcel"
      busyLabel="Creating..."
    />
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
