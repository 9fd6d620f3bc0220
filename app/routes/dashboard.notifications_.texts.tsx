import { OpenForm } from '~/components/ui/open-form';
import { useState } from 'react';
import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { ResetAndSave } from '~/components/ui/submit-button';
import { FilterSelect } from '~/components/ui/filter-select';
import { requireRole, requireUser } from '~/http/auth.server';
import { asApiError } from '~/http/api.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { saveTextTemplate, textTemplate } from '~/services/notification-templates.server';
import {
  TEXT_EVENT_LABELS,
  TEXT_EVENTS,
  TEXT_LANGUAGE_NAMES,
  TEXT_LANGUAGES,
  TEXT_PLACEHOLDERS,
  TEXT_TEMPLATE_MAX,
  TextTemplateSchema,
  type TextEvent,
  type TextLanguage,
} from '~/schemas/texts';
import { countSms, MAX_SMS_SEGMENTS, smsCountText } from '~/utils/sms-segments';
import { useIsPending } from '~/utils/use-is-pending';
import { TextareaFor } from '~/components/ui/conform-fields';

const PATH = '/dashboard/notifications/texts';

/** The template chosen in the URL (`?event=…&language=…`), the first of each by default. */
function chosen(url: URL) {
  const event = url.searchParams.get('event') as TextEvent;
  const language = url.searchParams.get('language') as TextLanguage;
  return {
    event: TEXT_EVENTS.includes(event) ? event : TEXT_EVENTS[0],
    language: TEXT_LANGUAGES.includes(language) ? language : TEXT_LANGUAGES[0],
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const { event, language } = chosen(new URL(request.url));
  return json({ event, language, body: await textTemplate(event, language) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const submission = parseWithZod(await readFormData(request), { schema: TextTemplateSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const { event, language, intent, body } = submission.value;
  try {
    await saveTextTemplate(event, language, intent === 'reset' ? '' : body, { user, context });
  } catch (error) {
    const refused = asApiError(error);
    if (refused?.status !== 400) throw error;
    return invalidForm(submission, { fieldErrors: refused.details });
  }
  return redirectWithToast(request, `${PATH}?${new URLSearchParams({ event, language })}`, {
    type: 'success',
    title: intent === 'reset' ? 'Text template reset' : 'Text template saved',
    description: `${TEXT_EVENT_LABELS[event]} (${TEXT_LANGUAGE_NAMES[language]})`,
  });
}

export const meta: MetaFunction = () => [{ title: 'Text templates · Management dashboard' }];

export default function TextTemplatesPage() {
  const { event, language, body } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const saving = useIsPending({ state: 'submitting', formData: { intent: 'save' } });
  const resetting = useIsPending({ state: 'submitting', formData: { intent: 'reset' } });
  const [form, fields] = useForm({
    id: `text-template-${event}-${language}`,
    lastResult,
    defaultValue: { event, language, body },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TextTemplateSchema }),
  });
  const [typed, setTyped] = useState(body);
  const count = countSms(typed);
  const placeholders = TEXT_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ');

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Text templates</h1>
        <Link to="/dashboard/notifications/settings" className="btn-secondary">
          Automatic e-mails and texts
        </Link>
      </div>
      <OpenForm>
        <FilterSelect
          id="text-event"
          name="event"
          label="Event"
          defaultValue={event}
          choices={TEXT_EVENTS.map((e) => ({ value: e, label: TEXT_EVENT_LABELS[e] }))}
        />
        <FilterSelect
          id="text-language"
          name="language"
          label="Language"
          defaultValue={language}
          choices={TEXT_LANGUAGES.map((l) => ({ value: l, label: TEXT_LANGUAGE_NAMES[l] }))}
        />
      </OpenForm>
      <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
        <h2 className="text-lg font-semibold">
          {TEXT_EVENT_LABELS[event]} · {TEXT_LANGUAGE_NAMES[language]}
        </h2>
        <FormErrors id={form.errorId} errors={form.errors} />
        <p className="text-sm text-gray-600">
          Placeholders, filled in for the parcel when the text is sent: {placeholders}. A text that
          does not name the company is opened with its name. At most {MAX_SMS_SEGMENTS} messages;
          recipients without a template in their language get the English one.
        </p>
        <input type="hidden" name="event" value={event} />
        <input type="hidden" name="language" value={language} />
        <TextareaFor
          label="Text"
          meta={fields.body}
          rows={5}
          maxLength={TEXT_TEMPLATE_MAX}
          dir={language === 'ar' ? 'rtl' : undefined}
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <p
          aria-live="polite"
          data-testid="sms-count"
          className={
            count.segments > MAX_SMS_SEGMENTS ? 'text-sm text-red-700' : 'text-sm text-gray-600'
          }
        >
          {smsCountText(count)}
        </p>
        <ResetAndSave resetting={resetting} saving={saving} saveLabel="Save text" />
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
