import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { statementMonthParam } from '~/http/statement-api.server';
import { StatementPaymentBodySchema } from '~/schemas/statement';
import { recordStatementPayment } from '~/services/statements.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'staff',
      idempotent: true,
      ids: { id: 'account id' },
      body: StatementPaymentBodySchema,
      summary: 'Record a payment against an account’s monthly statement',
      description:
        'Records a payment received against the account’s statement for the company month, as staff do on the statement’s page: `amount` in minor units of the statement’s currency (COMPANY_CURRENCY; another currency is a 400 with code currency_mismatch), an optional `reference` and the day it was `receivedAt` (today when not given). The statement’s `paidAmount` and `outstandingAmount` include it at once. Audited. Staff and admins only: an account’s key is refused with 403.',
      bodyExample: {
        amount: { amount: 1250, currency: 'USD' },
        reference: 'Bank transfer 0042',
        receivedAt: '2026-06-03',
      },
      responses: { 201: wrap('payment', 'StatementPayment') },
      errors: [404],
    },
    async ({ ids, params, body, actor }) => {
      const payment = await recordStatementPayment(
        ids.id,
        statementMonthParam(params.month),
        { amount: body.amount, date: body.receivedAt, note: body.reference },
        actor,
      );
      return json({ payment }, { status: 201 });
    },
  ),
});
