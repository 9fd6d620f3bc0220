import type { Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, TypedResponse } from '@remix-run/node';
import type { z } from 'zod';
import { readFormData } from '~/lib/form.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import type { UserRole } from '~/schemas/roles';
import { requireUserWithRole } from './auth.server';

/** The signed-in user a page action acts for, and the actor its services are handed. */
export type ActionPage<U> = { request: Request; user: U; actor: { user: U; context: unknown } };

/** A staff page's check, for `intentAction`: the signed-in user has at least `role`. */
export const withRole = (role: UserRole) => (request: Request) =>
  requireUserWithRole(request, role);

type Refused<S extends z.ZodType> = Submission<z.input<S>, string[], z.output<S>>;

export type IntentForm<S extends z.ZodType, R> = {
  schema: S;
  run: (value: z.output<S>, submission: Refused<S>) => Promise<R>;
  invalid?: (submission: Refused<S>) => R;
};

/**
 * One form of a page: its schema, what it does with the values the schema accepted, and, when
 * it is not conform's reply with 400, the answer to a form the schema refused.
 */
export function intentForm<S extends z.ZodType, R>(
  schema: S,
  run: IntentForm<S, R>['run'],
  invalid?: IntentForm<S, R>['invalid'],
): IntentForm<S, R> {
  return { schema, run, invalid };
}

type Answer<F> = {
  [K in keyof F]: F[K] extends IntentForm<z.ZodType, infer R> ? R : never;
}[keyof F];

/**
 * The action of a page whose forms are told apart by their `intent` field (the Epic Stack's
 * way): the user the page requires, then the form, read once, answered by the form of its
 * intent, or by the page's main form (`''`) for any other.
 */
export function intentAction<U, F extends { '': IntentForm<z.ZodType, unknown> }>(
  requireUser: (request: Request) => Promise<U>,
  formsOf: (page: ActionPage<U>) => F & Record<string, IntentForm<z.ZodType, unknown>>,
) {
  return async ({
    request,
    context,
  }: ActionFunctionArgs): Promise<Answer<F> | TypedResponse<FormReply>> => {
    const user = await requireUser(request);
    const formData = await readFormData(request);
    const forms = formsOf({ request, user, actor: { user, context } });
    const intent = formData.get('intent');
    const form =
      typeof intent === 'string' && intent !== '' && Object.hasOwn(forms, intent)
        ? forms[intent]!
        : forms[''];
    const submission = parseWithZod(formData, { schema: form.schema });
    if (submission.status !== 'success')
      return form.invalid ? (form.invalid(submission) as Answer<F>) : invalidForm(submission);
    return (await form.run(submission.value, submission)) as Answer<F>;
  };
}
