import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors, SelectOptions, singleSelectProps } from '~/components/ui/field';
import { getNotificationSettings } from '~/models/notification-settings.server';
import { saveAutomaticEmailSettings } from '~/services/notification-templates.server';
import { NOTIFICATION_TYPES } from '~/schemas/constants';
import { DAY_BEFORE_LABEL, NotificationSettingsFormSchema } from '~/schemas/notification-settings';
import { requireRole, requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { smsProviderConfigured } from '~/services/sms-sender.server';
import { TEXT_EVENT_LABELS, TEXT_EVENTS, type TextRules } from '~/schemas/texts';

/** The boxes of the automatic texts, as the rules store them. */
function textRulesOf(texts: Record<string, unknown>): TextRules {
  return Object.fromEntries(
    TEXT_EVENTS.map((event) => [event, texts[event] === true]),
  ) as TextRules;
}

const PATH = '/dashboard/notifications/settings';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  return json({
    settings: await getNotificationSettings(),
    smsProvider: smsProviderConfigured(),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requireRole(user, 'admin', 'page');
  const submission = parseWithZod(await readFormData(request), {
    schema: NotificationSettingsFormSchema,
  });
  if (submission.status !== 'success') return invalidForm(submission);
  const changed = submission.value.rules
    .filter(
      (rule) =>
        rule.wasEnabled === undefined ||
        rule.wasEnabled !== String(rule.enabled) ||
        rule.wasTemplate !== rule.template,
    )
    .map(({ status, enabled, template }) => ({ status, enabled, template }));
  const dayBefore = submission.value.dayBefore;
  const dayBeforeChanged =
    dayBefore &&
    (dayBefore.wasEnabled === undefined ||
      dayBefore.wasEnabled !== String(dayBefore.enabled) ||
      dayBefore.wasTemplate !== dayBefore.template);
  await saveAutomaticEmailSettings(
    {
      rules: changed,
      ...(dayBeforeChanged
        ? { dayBefore: { enabled: dayBefore.enabled, template: dayBefore.template } }
        : {}),
      ...(submission.value.texts ? { texts: textRulesOf(submission.value.texts) } : {}),
    },
    { user, context },
  );
  return redirectWithToast(request, PATH, {
    type: 'success',
    title: 'Automatic e-mails saved',
  });
}

export const meta: MetaFunction = () => [{ title: 'Automatic e-mails · Management dashboard' }];

export default function AutomaticEmailsPage() {
  const { settings, smsProvider } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const saving = useIsPending({ state: 'submitting' });
  const [form, fields] = useForm({
    id: `automatic-emails-${settings.updatedAt ?? 'default'}`,
    lastResult,
    defaultValue: { rules: settings.rules, dayBefore: settings.dayBefore },
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: NotificationSettingsFormSchema }),
  });
  const rules = fields.rules.getFieldList();
  const dayBefore = fields.dayBefore.getFieldset();

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Automatic e-mails</h1>
        <Link to="/dashboard/notifications" className="btn-secondary">
          Back to notifications
        </Link>
      </div>
      <Form method="post" {...getFormProps(form)} className="card space-y-4 p-4">
        <p className="text-sm text-gray-600">
          When a tracking event changes a parcel&apos;s status to one of those ticked, its recipient
          is e-mailed once with the chosen template. The day before delivery, the recipient is
          e-mailed the day and the expected window, once per parcel and day.
        </p>
        <FormErrors id={form.errorId} errors={form.errors} />
        <table className="w-full text-left text-sm">
          <caption className="sr-only">E-mail the recipient when…</caption>
          <thead>
            <tr className="border-b text-gray-600">
              <th scope="col" className="py-2">
                When
              </th>
              <th scope="col" className="py-2">
                E-mail the recipient
              </th>
              <th scope="col" className="py-2">
                Template
              </th>
            </tr>
          </thead>
          <tbody>
            {[
              ...rules.map((rule, index) => {
                const fields = rule.getFieldset();
                const status = settings.rules[index]!.status;
                return {
                  key: rule.key ?? status,
                  heading: status,
                  loaded: settings.rules[index]!,
                  fields,
                  status: <input {...getInputProps(fields.status, { type: 'hidden' })} />,
                  labels: {
                    enabled: `E-mail the recipient when the parcel is ${status}`,
                    template: `Template for ${status}`,
                  },
                };
              }),
              {
                key: 'day-before',
                heading: DAY_BEFORE_LABEL,
                loaded: settings.dayBefore,
                fields: dayBefore,
                status: null,
                labels: {
                  enabled: 'E-mail the recipient the day before delivery',
                  template: 'Template for the day before delivery',
                },
              },
            ].map(({ key, heading, loaded, fields, status, labels }) => (
              <RuleRow
                key={key}
                heading={heading}
                loaded={loaded}
                names={{ wasEnabled: fields.wasEnabled.name, wasTemplate: fields.wasTemplate.name }}
                enabled={getInputProps(fields.enabled, { type: 'checkbox' })}
                template={getSelectProps(fields.template)}
                labels={labels}
              >
                {status}
              </RuleRow>
            ))}
          </tbody>
        </table>
        <fieldset className="space-y-2 border-t pt-4">
          <legend className="pt-4 text-lg font-semibold text-gray-900">Automatic texts</legend>
          <p className="text-sm text-gray-600">
            {smsProvider
              ? 'Texts go to the recipient’s mobile through the SMS provider, never in their quiet hours and never to a number that replied STOP.'
              : 'No SMS provider is configured (SMS_URL): texts are written to the SMS outbox folder.'}{' '}
            <Link to="/dashboard/notifications/texts" className="text-brand-700 underline">
              Edit text templates
            </Link>
          </p>
          <input type="hidden" name="texts.shown" value="true" />
          {TEXT_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={`texts.${event}`}
                defaultChecked={settings.texts[event]}
                className="h-4 w-4"
              />
              Text the recipient: {TEXT_EVENT_LABELS[event]}
            </label>
          ))}
        </fieldset>
        <div className="flex justify-end">
          <SubmitButton pending={saving} pendingLabel="Saving...">
            Save
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

/**
 * One rule's row: when, whether and which template, with what it showed when loaded (`was…`), so
 * that only the rows changed here are saved.
 */
function RuleRow({
  heading,
  loaded,
  names,
  enabled,
  template,
  labels,
  children,
}: {
  heading: string;
  loaded: { enabled: boolean; template: string };
  names: { wasEnabled: string; wasTemplate: string };
  enabled: InputHTMLAttributes<HTMLInputElement>;
  template: SelectHTMLAttributes<HTMLSelectElement>;
  labels: { enabled: string; template: string };
  children?: ReactNode;
}) {
  return (
    <tr className="border-b last:border-0">
      <th scope="row" className="py-2 font-medium">
        {heading}
        {children}
        <input type="hidden" name={names.wasEnabled} value={String(loaded.enabled)} />
        <input type="hidden" name={names.wasTemplate} value={loaded.template} />
      </th>
      <td className="py-2">
        <input {...enabled} aria-label={labels.enabled} className="h-4 w-4" />
      </td>
      <td className="py-2">
        <select
          {...singleSelectProps(template)}
          aria-label={labels.template}
          className="field-input"
        >
          <SelectOptions options={NOTIFICATION_TYPES} />
        </select>
      </td>
    </tr>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
