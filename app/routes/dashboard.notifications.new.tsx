import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { Spinner } from '~/components/ui/spinner';
import {
  createAndSendNotification,
  getParcelForNotification,
  listParcelsForNotifications,
  type NotificationParcelOption,
} from '~/models/notification.server';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import {
  NOTIFICATION_MESSAGE_MAX,
  NOTIFICATION_PARCEL_CHOICES,
  NOTIFICATION_TITLE_MAX,
  notificationTemplate,
  NotificationSendFormSchema,
  type NotificationType,
} from '~/schemas/notification';
import { fieldErrors } from '~/services/api.server';
import { requireUser } from '~/services/auth.server';
import { redirectWithToast } from '~/services/flash.server';
import { useHydrated } from '~/utils/use-hydrated';

const LIST_PATH = '/dashboard/notifications';
const NO_RECIPIENT_EMAIL =
  'This parcel has no recipient e-mail address. Add one to the parcel first.';

type FormValues = { parcelId: string; type: NotificationType; title: string; message: string };

function asType(value: string | null): NotificationType | null {
  return NOTIFICATION_TYPES.find((t) => t === value) ?? null;
}

const templateParcel = (p: NotificationParcelOption | null | undefined) =>
  p ? { trackingNumber: p.trackingNumber, status: p.status, recipientName: p.recipientName } : null;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const parcels = await listParcelsForNotifications({ limit: NOTIFICATION_PARCEL_CHOICES });
  const parcelId = params.get('parcelId') ?? '';
  let selected = parcels.find((p) => p.id === parcelId) ?? null;
  if (parcelId && !selected) {
    // A parcel older than the newest 50 can still be preselected by link.
    selected = await getParcelForNotification(parcelId);
    if (selected) parcels.push(selected);
  }
  const type = asType(params.get('type') ?? params.get('template')) ?? NOTIFICATION_TYPES[0];
  // Templates fill subject and message; with Custom, keep what was typed before applying.
  const filled =
    type === 'Custom'
      ? {
          title: (params.get('title') ?? '').slice(0, NOTIFICATION_TITLE_MAX),
          message: (params.get('message') ?? '').slice(0, NOTIFICATION_MESSAGE_MAX),
        }
      : notificationTemplate(type, templateParcel(selected));
  const values: FormValues = { parcelId: selected?.id ?? '', type, ...filled };
  return json({ parcels, values });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const values: FormValues = {
    parcelId: String(form.parcelId ?? ''),
    type: asType(String(form.type ?? '')) ?? 'Custom',
    title: String(form.title ?? ''),
    message: String(form.message ?? ''),
  };
  const parsed = NotificationSendFormSchema.safeParse(form);
  if (!parsed.success) {
    return json({ values, errors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const parcel = await getParcelForNotification(parsed.data.parcelId);
  if (!parcel) {
    return json({ values, errors: { parcelId: ['Please select a parcel'] } }, { status: 400 });
  }
  if (!parcel.recipientEmail) {
    return json({ values, errors: { parcelId: [NO_RECIPIENT_EMAIL] } }, { status: 400 });
  }

  const notification = await createAndSendNotification({
    type: parsed.data.type,
    recipient: parcel.recipientEmail,
    title: parsed.data.title,
    message: parsed.data.message,
    trackingNumber: parcel.trackingNumber,
    parcelId: parcel.id,
  });
  if (notification.status !== 'sent') {
    // The failed notification stays in the list with its error text and a Retry button.
    return redirectWithToast(request, LIST_PATH, {
      type: 'error',
      title: 'Failed to send notification',
      description: 'Please try again later.',
    });
  }
  return redirectWithToast(request, LIST_PATH, {
    type: 'success',
    title: 'Notification sent',
    description: `E-mail sent to ${notification.recipient}.`,
  });
}

export const meta: MetaFunction = () => [{ title: 'Send Notification · Management dashboard' }];

export default function SendNotificationDialog() {
  const { parcels, values: loaded } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A new template or parcel applied through the URL starts the form afresh.
  const key = `${loaded.parcelId}|${loaded.type}|${loaded.title}`;
  return (
    <RouteDialog
      title="Send Notification"
      closeTo={LIST_PATH}
      description="E-mail the recipient of a parcel."
    >
      <SendNotificationForm
        key={key}
        parcels={parcels}
        initial={actionData?.values ?? loaded}
        errors={actionData?.errors}
      />
    </RouteDialog>
  );
}

function SendNotificationForm({
  parcels,
  initial,
  errors,
}: {
  parcels: NotificationParcelOption[];
  initial: FormValues;
  errors?: Record<string, string[]>;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [values, setValues] = useState<FormValues>(initial);
  const parcel = parcels.find((p) => p.id === values.parcelId) ?? null;
  const sending =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const applying = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'GET';

  function choose(next: Partial<FormValues>) {
    setValues((current) => {
      const merged = { ...current, ...next };
      if (merged.type === 'Custom') {
        return next.type ? { ...merged, title: '', message: '' } : merged;
      }
      const chosen = parcels.find((p) => p.id === merged.parcelId) ?? null;
      return { ...merged, ...notificationTemplate(merged.type, templateParcel(chosen)) };
    });
  }

  return (
    <Form method="post" action={`${LIST_PATH}/new`} className="space-y-4">
      <FormErrors errors={errors?.['']} />
      <SelectField
        label="Parcel"
        name="parcelId"
        required
        value={values.parcelId}
        onChange={(e) => choose({ parcelId: e.target.value })}
        errors={errors?.parcelId}
      >
        <option value="">Select a parcel…</option>
        {parcels.map((p) => (
          <option key={p.id} value={p.id}>
            {p.trackingNumber} — {p.recipientName || 'No name'} ({p.recipientEmail || 'no e-mail'})
          </option>
        ))}
      </SelectField>
      {parcel ? (
        <Field
          label="Recipient email"
          value={parcel.recipientEmail || 'No e-mail address on this parcel'}
          readOnly
          aria-readonly="true"
          className="[&_input]:bg-gray-50"
        />
      ) : null}
      <SelectField
        label="Template"
        name="type"
        value={values.type}
        onChange={(e) => choose({ type: e.target.value as NotificationType })}
        errors={errors?.type}
      >
        {NOTIFICATION_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </SelectField>
      {hydrated ? null : (
        <div>
          <button
            type="submit"
            formMethod="get"
            formAction={`${LIST_PATH}/new`}
            formNoValidate
            className="btn-secondary"
          >
            {applying ? <Spinner /> : null}
            Apply template
          </button>
          <p className="mt-1 text-xs text-gray-500">
            Fills the subject and message for the chosen parcel and template.
          </p>
        </div>
      )}
      <Field
        label="Subject"
        name="title"
        required
        maxLength={NOTIFICATION_TITLE_MAX}
        value={values.title}
        onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))}
        errors={errors?.title}
      />
      <TextareaField
        label="Message"
        name="message"
        required
        rows={8}
        maxLength={NOTIFICATION_MESSAGE_MAX}
        value={values.message}
        onChange={(e) => setValues((v) => ({ ...v, message: e.target.value }))}
        errors={errors?.message}
      />
      <div className="flex justify-end gap-2">
        <button type="submit" className="btn-primary" disabled={sending}>
          {sending ? (
            <>
              <Spinner /> Sending...
            </>
          ) : (
            'Send'
          )}
        </button>
      </div>
    </Form>
  );
}
