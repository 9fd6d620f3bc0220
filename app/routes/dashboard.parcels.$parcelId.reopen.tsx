import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { CancelAndSubmit } from '~/components/ui/submit-button';
import { getParcelStatus } from '~/models/parcel-reads.server';
import { FINAL_STATUSES, REOPEN_STATUSES, type ParcelStatus } from '~/schemas/constants';
import { ParcelReopenSchema, REOPEN_REASON_MAX } from '~/schemas/tracking-event';
import { requireUserWithRole } from '~/http/auth.server';
import { NotFinalError, reopenParcel } from '~/services/tracking-events.server';
import { redirectWithToast } from '~/lib/flash.server';
import { isObjectId } from '~/lib/db.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { useIsPending } from '~/utils/use-is-pending';
import { SelectFor, TextareaFor } from '~/components/ui/conform-fields';

/**
 * Reopening a delivered or returned parcel (staff): scans no longer change such a parcel, so
 * moving it back is this deliberate step, with the status it goes back to and the reason, which
 * its timeline and the audit trail keep.
 */
const notFound = () => json({ message: 'Parcel not found' }, { status: 404 });

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const id = params.parcelId ?? '';
  const parcel = isObjectId(id) ? await getParcelStatus(id) : null;
  if (!parcel) throw notFound();
  return json({
    parcel: {
      id: String(parcel._id),
      trackingNumber: parcel.trackingNumber,
      status: parcel.status ?? 'Pending',
    },
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), { schema: ParcelReopenSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const parcelId = params.parcelId ?? '';
  let reopened;
  try {
    reopened = await reopenParcel(parcelId, submission.value, { user, context });
  } catch (error) {
    if (!(error instanceof NotFinalError)) throw error;
    return invalidForm(submission, { status: 409, formErrors: [error.message] });
  }
  if (!reopened) throw notFound();
  const search = new URL(request.url).search;
  return redirectWithToast(request, `/dashboard/parcels/${parcelId}${search}`, {
    type: 'success',
    title: 'Parcel reopened',
    description: `${reopened.parcel.trackingNumber} is ${reopened.parcel.status} again.`,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Reopen ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard` },
];

export default function ReopenParcelDialog() {
  const { parcel } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const closeTo = `/dashboard/parcels/${parcel.id}${search}`;
  const [form, fields] = useForm({
    id: 'reopen-parcel',
    lastResult: useActionData<typeof action>(),
    defaultValue: { status: 'In Transit', reason: '' },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ParcelReopenSchema }),
  });
  const busy = useIsPending();
  const final = FINAL_STATUSES.includes(parcel.status as ParcelStatus);
  return (
    <RouteDialog title={`Reopen ${parcel.trackingNumber}`} closeTo={closeTo} size="md">
      {final ? (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <p className="text-sm text-gray-700">
            It is {parcel.status}: scans no longer change it. Reopening adds an event with your
            reason to its timeline and records it in the audit trail. Its proofs of delivery stay.
          </p>
          <FormErrors id={form.errorId} errors={form.errors} />
          <SelectFor label="Back to" meta={fields.status}>
            {REOPEN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </SelectFor>
          <TextareaFor
            label="Reason"
            rows={3}
            meta={fields.reason}
            maxLength={REOPEN_REASON_MAX}
            required
          />
          <CancelAndSubmit cancelTo={closeTo} pending={busy} pendingLabel="Reopening...">
            Reopen parcel
          </CancelAndSubmit>
        </Form>
      ) : (
        <p role="status" className="text-sm text-gray-700">
          It is {parcel.status}: only a delivered or returned parcel is reopened.
        </p>
      )}
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
