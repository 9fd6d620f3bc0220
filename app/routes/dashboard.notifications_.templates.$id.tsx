import { OpenForm } from '~/components/ui/open-form';
import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { getNotificationTemplate, templateTypeOf } from '~/models/notification-template.server';
import { listParcelOptions } from '~/models/parcel-reads.server';
import { NOTIFICATION_PARCEL_CHOICES } from '~/schemas/notification';
import {
  NotificationTemplateFormSchema,
  TEMPLATE_HTML_MAX,
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SUBJECT_MAX,
  TEMPLATE_TEXT_MAX,
} from '~/schemas/notification-template';
import { requireRole, requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import {
  previewNotificationTemplate,
  resetNotificationTemplate,
  saveNotificationTemplate,
} from '~/services/notification-templates.server';
import { ResetAndSave, SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { FilterSelect } from '~/components/ui/filter-select';
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from '~/schemas/languages';
import { TEXT_LANGUAGE_NAMES } from '~/schemas/texts';
import { InputFor, SelectFor, TextareaFor } from '~/components/ui/conform-fields';

const LIST_PATH = '/dashboard/notifications/templates';

function typeFrom(id: string | undefined) {
  const type = templateTypeOf(id ?? '');
  if (!type) throw json({ message: 'No such template' }, { status: 404 });
  return type;
}

/** The language chosen in the URL (`?language=es`), English by default. */
function languageFrom(request: Request): Language {
  const asked = new URL(request.url).searchParams.get('language');
  return LANGUAGES.find((language) => language.code === asked)?.code ?? SOURCE_LANGUAGE;
}

function languageName(code: Language) {
  return TEXT_LANGUAGE_NAMES[code];
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const type = typeFrom(params.id);
  const [template, parcels] = await Promise.all([
    getNotificationTemplate(type, languageFrom(request)),
    listParcelOptions({ limit: NOTIFICATION_PARCEL_CHOICES }),
  ]);
  return json({ template, parcels });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const type = typeFrom(params.id);
  const language = languageFrom(request);
  const here = `${LIST_PATH}/${params.id}${language === SOURCE_LANGUAGE ? '' : `?language=${language}`}`;
  const submission = parseWithZod(await readFormData(request), {
    schema: NotificationTemplateFormSchema,
  });
  const into = (result: FormReply) => ({ result, preview: null });
  if (submission.status !== 'success') return invalidForm(submission, { into });
  const value = submission.value;
  if (value.intent === 'reset') {
    await resetNotificationTemplate(type, { user, context }, language);
    return redirectWithToast(request, here, {
      type: 'success',
      title: 'Template reset',
      description: `${type} (${languageName(language)}) is back to the default template.`,
    });
  }
  if (value.intent === 'preview') {
    const preview = await previewNotificationTemplate(value, value.parcelId ?? '', language);
    if (!preview) {
      return invalidForm(submission, {
        fieldErrors: { parcelId: ['Please select a parcel'] },
        into,
      });
    }
    return json({ result: submission.reply(), preview });
  }
  await saveNotificationTemplate(type, value, { user, context }, language);
  return redirectWithToast(request, LIST_PATH, {
    type: 'success',
    title: 'Template saved',
    description: `${type} template saved (${languageName(language)}).`,
  });
}

export const meta: MetaFunction = () => [{ title: 'Edit e-mail template · Management dashboard' }];

export default function EditTemplatePage() {
  const { template, parcels } = useLoaderData<typeof loader>();
  const language = template.language as Language;
  const actionData = useActionData<typeof action>();
  const pending = (intent: string) => ({ state: 'submitting' as const, formData: { intent } });
  const previewing = useIsPending(pending('preview'));
  const resetting = useIsPending(pending('reset'));
  const saving = useIsPending(pending('save'));
  const [form, fields] = useForm({
    id: `template-${template.id}-${template.language}-${template.updatedAt ?? 'default'}`,
    lastResult: actionData?.result,
    defaultValue: { subject: template.subject, text: template.text, html: template.html },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: NotificationTemplateFormSchema }),
  });
  const preview = actionData?.preview ?? null;
  const placeholders = TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ');

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">{template.type} template</h1>
        <Link to={LIST_PATH} className="btn-secondary">
          All templates
        </Link>
      </div>
      <OpenForm>
        <FilterSelect
          id="template-language"
          name="language"
          label="Language"
          defaultValue={language}
          choices={LANGUAGES.map(({ code }) => ({ value: code, label: languageName(code) }))}
        />
      </OpenForm>
      <div className="grid gap-6 xl:grid-cols-2 xl:items-start">
        <Form
          method="post"
          action={`?${new URLSearchParams({ language })}`}
          {...getFormProps(form)}
          className="card space-y-4 p-4"
        >
          <h2 className="text-lg font-semibold">{languageName(language)}</h2>
          <FormErrors id={form.errorId} errors={form.errors} />
          {template.translated ? null : (
            <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="note">
              Not translated: the English text is sent. Save this form to give{' '}
              {languageName(language)} its own.
            </p>
          )}
          <p className="text-sm text-gray-600">
            {template.customized ? 'Edited by an admin.' : 'This is the default template.'}{' '}
            Placeholders, the same in every language, filled in for the parcel when the e-mail is
            sent: {placeholders}.
          </p>
          <InputFor label="Subject" meta={fields.subject} maxLength={TEMPLATE_SUBJECT_MAX} />
          <TextareaFor
            label="Text body"
            meta={fields.text}
            rows={10}
            maxLength={TEMPLATE_TEXT_MAX}
          />
          <TextareaFor
            label="HTML body"
            meta={fields.html}
            rows={10}
            maxLength={TEMPLATE_HTML_MAX}
            className="font-mono"
          />
          <SelectFor label="Preview with parcel" meta={fields.parcelId}>
            <option value="">Select a parcel…</option>
            {parcels.map((p) => (
              <option key={p.id} value={p.id}>
                {p.trackingNumber} — {p.recipientName || 'No name'} ({p.status})
              </option>
            ))}
          </SelectFor>
          <ResetAndSave resetting={resetting} saving={saving} saveLabel="Save template">
            <SubmitButton
              name="intent"
              value="preview"
              className="btn-secondary"
              pending={previewing}
            >
              Preview
            </SubmitButton>
          </ResetAndSave>
        </Form>
        <section aria-labelledby="template-preview-heading" className="card space-y-3 p-4">
          <h2 id="template-preview-heading" className="text-lg font-semibold">
            Preview
          </h2>
          {preview ? (
            <>
              <p className="text-sm text-gray-600">For parcel {preview.trackingNumber}</p>
              <p className="break-words" data-testid="preview-subject">
                <span className="font-medium">Subject:</span> {preview.subject}
              </p>
              <pre
                className="whitespace-pre-wrap rounded-md bg-gray-50 p-3 text-sm"
                aria-label="Text body preview"
              >
                {preview.text}
              </pre>
              <iframe
                title="HTML body preview"
                srcDoc={preview.html}
                sandbox=""
                className="h-[32rem] w-full rounded-md border border-gray-200 bg-white"
              />
            </>
          ) : (
            <p className="text-sm text-gray-600">
              Choose a parcel and press Preview to see the e-mail this template makes for it.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
