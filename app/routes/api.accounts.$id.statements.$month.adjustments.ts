import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { wrap } from '~/http/api-operation.server';
import { statementMonthParam } from '~/http/statement-api.server';
import { StatementAdjustmentBodySchema } from '~/schemas/statement';
import { addStatementAdjustment } from '~/services/statements.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'staff',
      idempotent: true,
      ids: { id: 'account id' },
      body: StatementAdjustmentBodySchema,
      summary: 'Add a credit or a charge to an account’s monthly statement',
      description:
        'Adds an adjustment to the account’s statement for the company month, as staff do on the statement’s page: a negative `amount` is a credit (it lowers the total), a positive one a charge, in minor units of the statement’s currency (COMPANY_CURRENCY; another currency is a 400 with code currency_mismatch), with the `description` the statement shows. The statement’s `adjustmentsAmount`, `totalAmount` and `outstandingAmount` include it at once. Audited. Staff and admins only: an account’s key is refused with 403.',
      bodyExample: { description: 'Late delivery', amount: { amount: -500, currency: 'USD' } },
      responses: { 201: wrap('adjustment', 'StatementAdjustment') },
      errors: [404],
    },
    async ({ ids, params, body, actor }) => {
      const adjustment = await addStatementAdjustment(
        ids.id,
        statementMonthParam(params.month),
        { amount: body.amount, note: body.description },
        actor,
      );
      return json({ adjustment }, { status: 201 });
    },
  ),
});
