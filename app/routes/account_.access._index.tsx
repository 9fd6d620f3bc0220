import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData } from '@remix-run/react';
import { PortalCard } from '~/components/account/portal-card';
import { SubmitButton } from '~/components/ui/submit-button';
import { AccessRequestSchema } from '~/schemas/account';
import { invalidForm } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import { requestAccess } from '~/services/account-users.server';
import { useIsPending } from '~/utils/use-is-pending';
import { staffStyles } from '~/utils/stylesheets';
import { InputFor } from '~/components/ui/conform-fields';

export { staffStyles as links };

const SENT =
  'If this address belongs to a shipping account, we have sent it a link to choose a password. It works once, for 7 days.';

/** A new link to choose a password: a reset, or an invitation that ran out or was used. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: AccessRequestSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  await requestAccess(submission.value.email);
  return json({ sent: true as const });
}

export const meta: MetaFunction = () => [{ title: 'Choose a new password' }];

export default function RequestAccess() {
  const answer = useActionData<typeof action>();
  const sent = answer && 'sent' in answer;
  const [form, fields] = useForm({ lastResult: sent ? undefined : answer });
  const pending = useIsPending();
  return (
    <PortalCard title="Choose a new password">
      {sent ? (
        <p role="status">{SENT}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <p className="text-sm text-gray-600">
            Give the e-mail address you sign in with: we will send you a link to choose a password.
          </p>
          <InputFor label="Email" meta={fields.email} type="email" autoComplete="email" required />
          <SubmitButton className="btn-primary w-full" pending={pending}>
            Send me a link
          </SubmitButton>
        </Form>
      )}
    </PortalCard>
  );
}
