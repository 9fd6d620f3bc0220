import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { StatementView } from '~/components/statements/statement-view';
import { FormErrors, SelectOptions } from '~/components/ui/field';
import { requireRole, requireUser } from '~/http/auth.server';
import { asApiError } from '~/http/api.server';
import { redirectWithToast } from '~/lib/flash.server';
import { invalidForm } from '~/lib/form-reply.server';
import { readFormData } from '~/lib/form.server';
import {
  ADJUSTMENT_KINDS,
  monthField,
  StatementAdjustmentFormSchema,
  StatementPaymentFormSchema,
} from '~/schemas/statement';
import {
  addStatementAdjustment,
  getStatement,
  recordStatementPayment,
} from '~/services/statements.server';
import { InputFor, SelectFor } from '~/components/ui/conform-fields';

/**
 * Staff read any account's monthly statement, add a credit or a charge with its note, and record
 * a payment against it (each audited by the statements service).
 */
async function statementFor(request: Request, params: LoaderFunctionArgs['params']) {
  const user = await requireUser(request);
  requireRole(user, 'staff', 'page');
  const month = monthField.safeParse(params.month);
  if (!month.success) throw new Response('Not found', { status: 404 });
  try {
    return { user, statement: await getStatement(params.accountId ?? '', month.data) };
  } catch (error) {
    if (asApiError(error)?.status === 404) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { statement } = await statementFor(request, params);
  return json({ statement });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, statement } = await statementFor(request, params);
  const actor = { user, context };
  const formData = await readFormData(request);
  const path = `/dashboard/accounts/${statement.accountId}/statements/${statement.month}`;
  const paying = formData.get('intent') === 'pay';
  const submission = paying
    ? parseWithZod(formData, { schema: StatementPaymentFormSchema })
    : parseWithZod(formData, { schema: StatementAdjustmentFormSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  try {
    const value = submission.value;
    if (value.intent === 'pay')
      await recordStatementPayment(statement.accountId, statement.month, value, actor);
    else await addStatementAdjustment(statement.accountId, statement.month, value, actor);
  } catch (error) {
    const refused = asApiError(error);
    if (refused?.status !== 400) throw error;
    return invalidForm(submission, { fieldErrors: refused.details });
  }
  return redirectWithToast(request, path, {
    type: 'success',
    title: paying ? 'Payment recorded' : 'Adjustment added',
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Statement ${data?.statement.month ?? ''} · ${data?.statement.accountName ?? ''} · Management dashboard`,
  },
];

export default function AccountStatementPage() {
  const { statement } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [adjustForm, adjust] = useForm({
    id: 'statement-adjustment',
    lastResult: lastResult?.initialValue?.intent === 'adjust' ? lastResult : undefined,
    defaultValue: { kind: 'credit', amount: '', note: '' },
  });
  const [payForm, pay] = useForm({
    id: 'statement-payment',
    lastResult: lastResult?.initialValue?.intent === 'pay' ? lastResult : undefined,
    defaultValue: { amount: '', date: '', note: '' },
  });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">{statement.accountName}</h1>
      <StatementView statement={statement}>
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <Form method="post" {...getFormProps(adjustForm)} className="space-y-3">
            <h3 className="font-semibold">Add an adjustment</h3>
            <FormErrors id={adjustForm.errorId} errors={adjustForm.errors} />
            <input type="hidden" name="intent" value="adjust" />
            <SelectFor label="Kind" meta={adjust.kind}>
              <SelectOptions
                options={ADJUSTMENT_KINDS.map((kind) => ({
                  value: kind,
                  label: kind === 'credit' ? 'Credit' : 'Charge',
                }))}
              />
            </SelectFor>
            <InputFor
              label={`Amount (${statement.currency})`}
              inputMode="decimal"
              meta={adjust.amount}
            />
            <InputFor label="Note" meta={adjust.note} />
            <button type="submit" className="btn-secondary">
              Add adjustment
            </button>
          </Form>
          <Form method="post" {...getFormProps(payForm)} className="space-y-3">
            <h3 className="font-semibold">Record a payment</h3>
            <FormErrors id={payForm.errorId} errors={payForm.errors} />
            <input type="hidden" name="intent" value="pay" />
            <InputFor
              label={`Amount (${statement.currency})`}
              inputMode="decimal"
              meta={pay.amount}
            />
            <InputFor label="Paid on" meta={pay.date} type="date" />
            <InputFor label="Note (optional)" meta={pay.note} />
            <button type="submit" className="btn-secondary">
              Record payment
            </button>
          </Form>
        </div>
      </StatementView>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
