import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, type SerializeFrom } from '@remix-run/node';
import {
  ApplyChoiceButton,
  ParcelPickerRoute,
  type PickerDialog,
  type PickerFieldsProps,
} from '~/components/parcels/parcel-picker-dialog';
import { Field } from '~/components/ui/field';
import { getParcelOption } from '~/models/parcel-reads.server';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import {
  NOTIFICATION_MESSAGE_MAX,
  NOTIFICATION_PARCEL_CHOICES,
  NOTIFICATION_TITLE_MAX,
  NotificationSendFormSchema,
  type NotificationType,
} from '~/schemas/notification';
import {
  getNotificationTemplate,
  listNotificationTemplates,
} from '~/models/notification-template.server';
import { fillPlaceholders, TEMPLATE_PLACEHOLDERS } from '~/schemas/notification-template';
import { placeholdersForParcel } from '~/services/notification-templates.server';
import { loadParcelChoices } from '~/http/parcel-pages.server';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { createNotification } from '~/services/notifications.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor, SelectFor, TextareaFor } from '~/components/ui/conform-fields';

const LIST_PATH = '/dashboard/notifications';

const SEND_NOTIFICATION: PickerDialog<SerializeFrom<typeof loader>> = {
  title: 'Send Notification',
  description: 'E-mail the recipient of a parcel.',
  listPath: LIST_PATH,
  keep: ({ type }) => ({ type }),
  // A new template or parcel applied through the URL starts the form afresh.
  restartOn: ({ parcelId, type, title }) => [parcelId, type, title],
  schema: NotificationSendFormSchema,
  optionLabel: (p) =>
    `${p.trackingNumber} — ${p.recipientName || 'No name'} (${p.recipientEmail || 'no e-mail'})`,
  submitLabel: 'Send',
  pendingLabel: 'Sending...',
  enterSubmits: true,
  Fields: SendNotificationFields,
};

const NO_RECIPIENT_EMAIL =
  'This parcel has no recipient e-mail address. Add one to the parcel first.';

type FormValues = { parcelId: string; type: NotificationType; title: string; message: string };

function asType(value: string | null): NotificationType | null {
  return NOTIFICATION_TYPES.find((t) => t === value) ?? null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const params = new URL(request.url).searchParams;
  const parcelId = params.get('parcelId');
  const [{ parcels, chosen, picker }, stored, placeholders] = await Promise.all([
    loadParcelChoices(params, NOTIFICATION_PARCEL_CHOICES),
    listNotificationTemplates(),
    // What the placeholders become for the chosen parcel: the form previews the e-mail with them.
    parcelId ? placeholdersForParcel(parcelId) : null,
  ]);
  const templates = Object.fromEntries(
    stored.map((t) => [t.type, { title: t.subject, message: t.text }]),
  ) as Record<NotificationType, { title: string; message: string }>;
  const type = asType(params.get('type') ?? params.get('template')) ?? NOTIFICATION_TYPES[0];
  // Templates fill subject and message, placeholders and all (the server fills those in for the
  // parcel when it sends); an empty Custom template keeps what was typed before applying, and
  // Preview keeps what was typed whatever the template.
  const typed = {
    title: (params.get('title') ?? '').slice(0, NOTIFICATION_TITLE_MAX),
    message: (params.get('message') ?? '').slice(0, NOTIFICATION_MESSAGE_MAX),
  };
  const template = templates[type];
  const filled = !params.has('preview') && (template.title || template.message) ? template : typed;
  const values: FormValues = { parcelId: chosen?.id ?? '', type, ...filled };
  return json({ parcels, chosen, values, templates, picker, placeholders });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const submission = parseWithZod(await readFormData(request), {
    schema: NotificationSendFormSchema,
  });
  if (submission.status !== 'success') return invalidForm(submission);
  const parcel = await getParcelOption(submission.value.parcelId);
  if (!parcel) {
    return invalidForm(submission, { fieldErrors: { parcelId: ['Please select a parcel'] } });
  }
  if (!parcel.recipientEmail) {
    return invalidForm(submission, { fieldErrors: { parcelId: [NO_RECIPIENT_EMAIL] } });
  }

  // The template's HTML body goes with its text, as long as the text was sent as it is.
  const template = await getNotificationTemplate(submission.value.type);
  const sameText =
    template.html && template.text.trim() === submission.value.message.replace(/\r\n/g, '\n');
  const notification = await createNotification(
    {
      type: submission.value.type,
      recipient: parcel.recipientEmail,
      title: submission.value.title,
      message: submission.value.message,
      trackingNumber: parcel.trackingNumber,
      parcelId: parcel.id,
      ...(sameText ? { html: template.html } : {}),
    },
    { user, context },
  );
  // The e-mail is queued: the list shows it pending, then sent (or failed with the error text).
  return redirectWithToast(request, LIST_PATH, {
    type: 'success',
    title: 'Notification sent',
    description: `E-mail to ${notification.recipient} queued for delivery.`,
  });
}

export const meta: MetaFunction = () => [
  { title: `${SEND_NOTIFICATION.title} · Management dashboard` },
];

export default function SendNotificationDialog() {
  return <ParcelPickerRoute dialog={SEND_NOTIFICATION} />;
}

function SendNotificationFields({
  picked: { form, fields, hydrated, parcel },
  templates,
  placeholders,
}: PickerFieldsProps<SerializeFrom<typeof loader>>) {
  /** A template fills subject and message (an empty Custom one empties them). */
  function applyTemplate(type: NotificationType | null) {
    if (!type) return;
    const filled = templates[type];
    form.update({ name: fields.title.name, value: filled.title });
    form.update({ name: fields.message.name, value: filled.message });
  }

  return (
    <>
      {parcel ? (
        <Field
          label="Recipient email"
          value={parcel.recipientEmail || 'No e-mail address on this parcel'}
          readOnly
          aria-readonly="true"
          className="[&_input]:bg-gray-50"
        />
      ) : null}
      <SelectFor
        label="Template"
        meta={fields.type}
        onChange={(e) => applyTemplate(asType(e.target.value))}
        options={NOTIFICATION_TYPES}
      />
      {hydrated ? null : (
        <ApplyChoiceButton
          action={`${LIST_PATH}/new`}
          label="Apply template"
          hint="Fills the subject and message from the chosen template."
        />
      )}
      <InputFor label="Subject" meta={fields.title} required maxLength={NOTIFICATION_TITLE_MAX} />
      <TextareaFor
        label="Message"
        meta={fields.message}
        required
        rows={8}
        maxLength={NOTIFICATION_MESSAGE_MAX}
      />
      <p id="placeholder-hint" className="text-xs text-gray-600">
        Placeholders are filled in for the chosen parcel when the e-mail is sent:{' '}
        {TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}.
      </p>
      <MessagePreview
        placeholders={placeholders?.parcelId === parcel?.id ? placeholders : null}
        title={fields.title.value ?? ''}
        message={fields.message.value ?? ''}
      />
    </>
  );
}

/**
 * The e-mail as the recipient will read it, placeholders filled in for the chosen parcel. With
 * JavaScript it follows the typing; Preview (a GET that keeps what was typed) shows it for
 * another parcel, or without JavaScript.
 */
function MessagePreview({
  placeholders,
  title,
  message,
}: {
  placeholders: Awaited<ReturnType<typeof placeholdersForParcel>>;
  title: string;
  message: string;
}) {
  const previewing = useIsPending({
    formAction: `${LIST_PATH}/new`,
    formMethod: 'GET',
    formData: { preview: '1' },
  });
  return (
    <section aria-labelledby="message-preview-heading" className="rounded-md bg-gray-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="message-preview-heading" className="text-sm font-semibold text-gray-900">
          {placeholders ? `Preview for ${placeholders.trackingNumber}` : 'Preview'}
        </h3>
        <SubmitButton
          name="preview"
          value="1"
          formMethod="get"
          formAction={`${LIST_PATH}/new`}
          formNoValidate
          className="btn-secondary"
          pending={previewing}
        >
          {placeholders ? 'Refresh preview' : 'Preview'}
        </SubmitButton>
      </div>
      {placeholders ? (
        <div className="mt-2 space-y-1 text-sm">
          <p>
            <span className="font-semibold">Subject:</span>{' '}
            {fillPlaceholders(title, placeholders.values).replace(/\s+/g, ' ').trim() || '—'}
          </p>
          <p className="whitespace-pre-line break-words text-gray-800">
            {fillPlaceholders(message, placeholders.values) || '—'}
          </p>
        </div>
      ) : (
        <p className="mt-1 text-xs text-gray-600">
          Choose a parcel, then Preview to see the e-mail as its recipient will.
        </p>
      )}
    </section>
  );
}
