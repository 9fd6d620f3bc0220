import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { PortalCard } from '~/components/account/portal-card';
import { SubmitButton } from '~/components/ui/submit-button';
import { ChoosePasswordSchema } from '~/schemas/account';
import { startUserSession } from '~/http/session.server';
import { invalidForm } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import {
  checkAccessToken,
  chooseAccessPassword,
  type AccessCheck,
} from '~/services/account-users.server';
import { useIsPending } from '~/utils/use-is-pending';
import { staffStyles } from '~/utils/stylesheets';
import { PasswordFor } from '~/components/ui/conform-fields';

export { staffStyles as links };

const REFUSED: Record<Exclude<AccessCheck['state'], 'valid'>, string> = {
  expired: 'This link has expired: links to choose a password work for 7 days.',
  used: 'This link has already been used, or a newer one was sent.',
  invalid: 'This link is not valid: check that it was copied whole.',
};

/** Choosing a password through an invitation's or a reset's link, once. */
export async function loader({ params }: LoaderFunctionArgs) {
  const check = await checkAccessToken(params.token ?? '');
  if (check.state !== 'valid') return json({ refused: REFUSED[check.state], email: null });
  return json({ refused: null, email: check.user.email });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: ChoosePasswordSchema });
  const hideFields = ['password', 'confirm'];
  if (submission.status !== 'success') return invalidForm(submission, { hideFields });
  const done = await chooseAccessPassword(params.token ?? '', submission.value.password);
  if (done.state !== 'valid')
    return invalidForm(submission, { formErrors: [REFUSED[done.state]], hideFields, status: 410 });
  return redirect('/account', {
    headers: { 'Set-Cookie': await startUserSession(request, done.user.id) },
  });
}

export const meta: MetaFunction = () => [
  { title: 'Choose your password' },
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'same-origin' },
];

export default function ChoosePassword() {
  const { refused, email } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({ lastResult: useActionData<typeof action>() });
  const pending = useIsPending();
  const problem = refused ?? form.errors?.[0];
  if (problem)
    return (
      <PortalCard title="Choose your password">
        <p role="alert">{problem}</p>
        <Link to="/account/access" className="btn-primary">
          Ask for a new link
        </Link>
      </PortalCard>
    );
  return (
    <PortalCard title="Choose your password">
      <p className="text-sm text-gray-600">You will sign in as {email}.</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <PasswordFor label="Password" meta={fields.password} autoComplete="new-password" />
        <PasswordFor
          label="Repeat the password"
          meta={fields.confirm}
          autoComplete="new-password"
        />
        <SubmitButton className="btn-primary w-full" pending={pending}>
          Save and sign in
        </SubmitButton>
      </Form>
    </PortalCard>
  );
}
