import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { ParcelFormDialog, parcelToFormDefaults } from '~/components/parcels/parcel-form';
import { getParcelVersioned } from '~/models/parcel-reads.server';
import { ParcelUpdateFormSchema, ParcelVersionSchema } from '~/schemas/parcel';
import { listAccountNames } from '~/models/account.server';
import { requireUserWithRole } from '~/http/auth.server';
import {
  CHANGED_MEANWHILE,
  parcelSaveFailed,
  redirectAfterParcelChange,
} from '~/http/parcel-pages.server';
import { updateParcel } from '~/services/parcels.server';
import { recipientTimeZone } from '~/lib/address-time-zone.server';
import { StaleRecordError } from '~/lib/errors.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';

function notFound() {
  return json({ message: 'Parcel not found' }, { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const found = await getParcelVersioned(params.parcelId ?? '');
  if (!found) throw notFound();
  // The window is typed and shown in the recipient's zone.
  return json({
    parcel: { ...found.record, events: undefined },
    version: found.version,
    timeZone: recipientTimeZone(found.record),
    accounts: await listAccountNames({ activeOnly: true }),
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, {
    schema: ParcelUpdateFormSchema,
    disableAutoCoercion: true,
  });
  // The version the form was loaded with (a form from before versions were sent has none).
  const version = ParcelVersionSchema.safeParse(formData.get('version') ?? undefined);
  // A destination row added or removed without JavaScript is answered with the form as it is now.
  if (submission.status !== 'success') return invalidForm(submission);
  // The form always shows every destination, so no rows means none are left (and the model then
  // gives the parcel its recipient's, as on creation).
  const input = { ...submission.value, destinations: submission.value.destinations ?? [] };
  let parcel;
  try {
    parcel = await updateParcel(
      params.parcelId ?? '',
      input,
      { user, context },
      { version: version.success ? version.data : undefined },
    );
  } catch (error) {
    // Someone else's change came first: nothing is overwritten, and the form starts again from
    // the parcel as it is now (the loader's, with its new version).
    if (error instanceof StaleRecordError)
      return json({ changedMeanwhile: CHANGED_MEANWHILE }, { status: 409 });
    return parcelSaveFailed(request, 'update', submission, error);
  }
  return redirectAfterParcelChange(request, 'update', parcel);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

export default function EditParcelDialog() {
  const { parcel, version, timeZone, accounts } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const changedMeanwhile =
    answer && 'changedMeanwhile' in answer ? answer.changedMeanwhile : undefined;
  return (
    <ParcelFormDialog
      title={`Edit Parcel: ${parcel.trackingNumber}`}
      mode="edit"
      defaults={parcelToFormDefaults(parcel, timeZone)}
      timeZone={timeZone}
      accounts={accounts}
      version={version}
      notice={changedMeanwhile}
      phoneProblem={parcel.recipient.phoneProblem}
      lastResult={answer && !('changedMeanwhile' in answer) ? answer : undefined}
      submitLabel="Update Parcel"
      busyLabel="Updating..."
    />
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
