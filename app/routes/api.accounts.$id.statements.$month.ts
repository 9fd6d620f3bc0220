import { json } from '@remix-run/node';
import { accountRecordRef } from '~/http/account-refs.server';
import { apiRoute } from '~/http/api.server';
import { statementMonthParam } from '~/http/statement-api.server';
import { apiHandler } from '~/http/api-handler.server';
import { file, forAccounts, wrap } from '~/http/api-operation.server';
import { fileResponse } from '~/lib/http-cache.server';
import { StatementQuerySchema } from '~/schemas/statement';
import {
  getStatement,
  statementCsv,
  statementFilename,
  statementPdf,
} from '~/services/statements.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('staff'),
      ids: { id: accountRecordRef('account', async (id, accountId) => id === accountId) },
      query: StatementQuerySchema,
      summary: 'An account’s monthly statement (JSON, CSV or PDF)',
      description:
        'The account’s statement for a company month: every live parcel booked in it with its price (the booked `price`, else `cost` in the company’s currency), the adjustments staff added, the total, the payments recorded and what is outstanding, all in minor units of `currency`, with the month’s first-attempt delivery and on-time rates (as GET /api/reports/delivery-performance counts them). `?format=csv` or `?format=pdf` gives it as a file. Staff read every account’s; an account its own (another’s is 404).',
      responses: { 200: wrap('statement', 'Statement') },
      alsoAs: { 'text/csv': file('text/csv'), 'application/pdf': file('application/pdf') },
      errors: [404],
    },
    async ({ ids, query, params }) => {
      const statement = await getStatement(ids.id, statementMonthParam(params.month));
      if (query.format === 'csv')
        return fileResponse(statementCsv(statement), {
          contentType: 'text/csv; charset=utf-8',
          filename: statementFilename(statement, 'csv'),
        });
      if (query.format === 'pdf')
        return fileResponse(new Uint8Array(await statementPdf(statement)), {
          contentType: 'application/pdf',
          filename: statementFilename(statement, 'pdf'),
        });
      return json({ statement });
    },
  ),
});
