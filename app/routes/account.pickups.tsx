import { getFormProps, useForm } from '@conform-to/react';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { CardSection, ListCard } from '~/components/ui/card-section';
import { RecordIntentButton } from '~/components/ui/submit-button';
import { FormErrors } from '~/components/ui/field';
import { requireShipper } from '~/http/auth.server';
import { asApiError } from '~/http/api.server';
import { env } from '~/lib/env.server';
import { redirectWithToast } from '~/lib/flash.server';
import { invalidForm } from '~/lib/form-reply.server';
import { intentAction, intentForm } from '~/http/intent-action.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import { isAccountPickup } from '~/models/pickup.server';
import { PickupCancelSchema, PickupFormSchema } from '~/schemas/pickup';
import {
  cancelPickup,
  firstPickupDay,
  listPickups,
  requestPickup,
} from '~/services/pickups.server';
import { InputFor, TextareaFor } from '~/components/ui/conform-fields';

/**
 * The portal's pickups: ask for one (the same rules as POST /api/pickups: the cut-off, business
 * days, the account's pickup address), see them, and cancel one until its day's cut-off.
 */
const PATH = '/account/pickups';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const { pickupCutoff } = await getOperationsSettings();
  return json({
    pickups: await listPickups(user.account, {}),
    firstDay: firstPickupDay(new Date(), pickupCutoff),
    cutoff: pickupCutoff,
    timeZone: env.COMPANY_TIMEZONE,
  });
}

// A function, so that the browser's bundle, which leaves the server's code out, calls nothing.
export const action = (args: ActionFunctionArgs) =>
  intentAction(requireShipper, ({ request, user, actor }) => ({
    cancel: intentForm(PickupCancelSchema, async ({ pickupId }, submission) => {
      const own = await isAccountPickup(pickupId, user.account);
      try {
        if (!own || !(await cancelPickup(pickupId, actor)))
          return invalidForm(submission, { formErrors: ['Pickup not found'], status: 404 });
      } catch (error) {
        const refused = asApiError(error);
        if (refused?.status !== 409) throw error;
        return invalidForm(submission, { formErrors: [refused.message], status: 409 });
      }
      return redirectWithToast(request, PATH, { type: 'success', title: 'Pickup cancelled' });
    }),
    '': intentForm(
      PickupFormSchema,
      async ({ date, from, until, parcelCount, notes }, submission) => {
        try {
          await requestPickup({ date, window: { from, until }, parcelCount, notes }, actor);
        } catch (error) {
          const refused = asApiError(error);
          if (refused?.status !== 400) throw error;
          const { nextDate: _next, ...fieldErrors } = refused.details ?? {};
          return invalidForm(submission, { fieldErrors });
        }
        return redirectWithToast(request, PATH, {
          type: 'success',
          title: 'Pickup requested',
          description: `${date}, ${from}–${until}`,
        });
      },
    ),
  }))(args);

export const meta: MetaFunction = () => [{ title: 'Pickups · Your shipping account' }];

export default function AccountPickups() {
  const { pickups, firstDay, cutoff, timeZone } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: 'request-pickup',
    lastResult,
    defaultValue: { date: firstDay, from: '09:00', until: '17:00', parcelCount: '1', notes: '' },
    shouldValidate: 'onSubmit',
  });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Pickups</h1>
      <CardSection headingId="request-heading" title="Request a pickup">
        <p className="mb-3 text-sm text-gray-600">
          Monday to Friday, at your pickup address. Same-day pickups until {cutoff} ({timeZone}).
        </p>
        <Form
          method="post"
          action={PATH}
          {...getFormProps(form)}
          className="grid gap-3 sm:grid-cols-2"
        >
          <FormErrors id={form.errorId} errors={form.errors} />
          <InputFor label="Day" meta={fields.date} type="date" min={firstDay} />
          <InputFor label="Parcels" meta={fields.parcelCount} type="number" min={1} />
          <InputFor label="From" meta={fields.from} type="time" />
          <InputFor label="Until" meta={fields.until} type="time" />
          <TextareaFor label="Notes (optional)" className="sm:col-span-2" meta={fields.notes} />
          <div className="sm:col-span-2">
            <button type="submit" name="intent" value="request" className="btn-primary">
              Request pickup
            </button>
          </div>
        </Form>
      </CardSection>
      <ListCard
        headingId="pickups-heading"
        title="Your pickups"
        empty="No pickups yet."
        items={pickups}
        listClassName="divide-y divide-gray-200 text-sm"
        itemClassName="flex flex-wrap items-center gap-x-4 gap-y-1 py-2"
      >
        {(pickup) => (
          <>
            <span className="font-medium">
              {pickup.date} {pickup.window.from}–{pickup.window.until}
            </span>
            <span>
              {pickup.collectedCount} of {pickup.parcelCount} parcels in
            </span>
            <span className="capitalize">{pickup.status}</span>
            <span className="text-gray-600">
              {pickup.address.address}, {pickup.address.city}
            </span>
            {pickup.status === 'scheduled' ? (
              <RecordIntentButton
                action={PATH}
                intent="cancel"
                idField="pickupId"
                id={pickup.id}
                label={`Cancel the pickup of ${pickup.date}`}
                className="text-brand-700 underline"
                formClassName="ms-auto"
              >
                Cancel
              </RecordIntentButton>
            ) : null}
          </>
        )}
      </ListCard>
    </div>
  );
}
