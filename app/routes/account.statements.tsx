import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { recentMonths, StatementView } from '~/components/statements/statement-view';
import { requireShipper } from '~/http/auth.server';
import { env } from '~/lib/env.server';
import { monthField } from '~/schemas/statement';
import { getStatement, previousMonth } from '~/services/statements.server';
import { dayIn } from '~/utils/delivery-headline';

/** The account's monthly statements: last month's unless another is chosen. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const today = dayIn(new Date(), env.COMPANY_TIMEZONE);
  const asked = monthField.safeParse(new URL(request.url).searchParams.get('month'));
  const months = recentMonths(today.slice(0, 7));
  const month = asked.success && months.includes(asked.data) ? asked.data : previousMonth(today);
  return json({ months, statement: await getStatement(user.account.accountId, month) });
}

export const meta: MetaFunction = () => [{ title: 'Statements · Your shipping account' }];

export default function AccountStatements() {
  const { months, statement } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Statements</h1>
      <Form method="get" className="flex items-end gap-2">
        <label className="text-sm">
          <span className="block text-gray-700">Month</span>
          <select name="month" defaultValue={statement.month} className="field-input">
            {months.map((month) => (
              <option key={month}>{month}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-secondary">
          Show
        </button>
      </Form>
      <StatementView statement={statement} />
    </div>
  );
}
