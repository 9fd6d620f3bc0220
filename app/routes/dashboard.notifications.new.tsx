import {
  getFormProps,
  getSelectProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ParcelPickerSearch } from '~/components/parcels/parcel-picker-search';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { Spinner } from '~/components/ui/spinner';
import {
  createAndSendNotification,
  getParcelForNotification,
  listParcelsForNotifications,
  type NotificationParcelOption,
} from '~/models/notification.server';
import { NOTIFICATION_TYPES, PARCEL_SEARCH_MAX_LENGTH } from '~/schemas/constants';
import {
  NOTIFICATION_MESSAGE_MAX,
  NOTIFICATION_PARCEL_CHOICES,
  NOTIFICATION_TITLE_MAX,
  notificationTemplate,
  NotificationSendFormSchema,
  type NotificationType,
} from '~/schemas/notification';
import { requireUserWithRole } from '~/services/auth.server';
import { redirectWithToast } from '~/services/flash.server';
import { useHydrated } from '~/utils/use-hydrated';
import { readFormData } from '~/services/form.server';

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
  await requireUserWithRole(request, 'staff');
  const params = new URL(request.url).searchParams;
  const parcelSearch = (params.get('parcelSearch') ?? '').trim().slice(0, PARCEL_SEARCH_MAX_LENGTH);
  // One more than is shown tells whether there are others to search for.
  const found = await listParcelsForNotifications({
    limit: NOTIFICATION_PARCEL_CHOICES + 1,
    search: parcelSearch,
  });
  const truncated = found.length > NOTIFICATION_PARCEL_CHOICES;
  const parcels = found.slice(0, NOTIFICATION_PARCEL_CHOICES);
  const picker = { search: parcelSearch, shown: parcels.length, truncated };
  const parcelId = params.get('parcelId') ?? '';
  let selected = parcels.find((p) => p.id === parcelId) ?? null;
  if (parcelId && !selected) {
    // A parcel outside the list (older, or not matching the search) stays chosen.
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
  return json({ parcels, values, picker });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: NotificationSendFormSchema,
  });
  if (submission.status !== 'success') {
    return json(submission.reply(), { status: submission.status === 'error' ? 400 : 200 });
  }
  const parcel = await getParcelForNotification(submission.value.parcelId);
  if (!parcel) {
    return json(submission.reply({ fieldErrors: { parcelId: ['Please select a parcel'] } }), {
      status: 400,
    });
  }
  if (!parcel.recipientEmail) {
    return json(submission.reply({ fieldErrors: { parcelId: [NO_RECIPIENT_EMAIL] } }), {
      status: 400,
    });
  }

  const notification = await createAndSendNotification({
    type: submission.value.type,
    recipient: parcel.recipientEmail,
    title: submission.value.title,
    message: submission.value.message,
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
  const { parcels, values: loaded, picker } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // A new template or parcel applied through the URL starts the form afresh.
  const key = `${loaded.parcelId}|${loaded.type}|${loaded.title}`;
  return (
    <RouteDialog
      title="Send Notification"
      closeTo={LIST_PATH}
      description="E-mail the recipient of a parcel."
    >
      <ParcelPickerSearch
        action={`${LIST_PATH}/new`}
        {...picker}
        keep={{ type: loaded.type, ...(loaded.parcelId ? { parcelId: loaded.parcelId } : {}) }}
      />
      <SendNotificationForm
        key={key}
        parcels={parcels}
        defaultValue={loaded}
        lastResult={lastResult}
      />
    </RouteDialog>
  );
}

function SendNotificationForm({
  parcels,
  defaultValue,
  lastResult,
}: {
  parcels: NotificationParcelOption[];
  defaultValue: FormValues;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [form, fields] = useForm<FormValues, unknown>({
    lastResult,
    defaultValue,
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NotificationSendFormSchema }),
  });
  const parcel = parcels.find((p) => p.id === fields.parcelId.value) ?? null;
  const sending =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const applying = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'GET';

  /** A template fills subject and message for the chosen parcel; choosing Custom empties them. */
  function applyTemplate(type: NotificationType | null, parcelId: string | undefined) {
    if (!type) return;
    const chosen = parcels.find((p) => p.id === parcelId) ?? null;
    const filled = notificationTemplate(type, templateParcel(chosen));
    form.update({ name: fields.title.name, value: filled.title });
    form.update({ name: fields.message.name, value: filled.message });
  }

  return (
    <Form method="post" action={`${LIST_PATH}/new`} {...getFormProps(form)} className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <SelectField
        label="Parcel"
        {...getSelectProps(fields.parcelId)}
        required
        onChange={(e) => {
          const type = asType(fields.type.value ?? null);
          if (type !== 'Custom') applyTemplate(type, e.target.value);
        }}
        errors={fields.parcelId.errors}
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
        {...getSelectProps(fields.type)}
        onChange={(e) => applyTemplate(asType(e.target.value), fields.parcelId.value)}
        errors={fields.type.errors}
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
        {...getInputProps(fields.title, { type: 'text' })}
        required
        maxLength={NOTIFICATION_TITLE_MAX}
        errors={fields.title.errors}
      />
      <TextareaField
        label="Message"
        {...getTextareaProps(fields.message)}
        required
        rows={8}
        maxLength={NOTIFICATION_MESSAGE_MAX}
        errors={fields.message.errors}
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
