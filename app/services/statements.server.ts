import { stringify } from 'csv-stringify/sync';
import { CSV_ESCAPING } from '~/lib/csv.server';
import { env, publicCompanyInfo } from '~/lib/env.server';
import { NotFoundError, ValidationError } from '~/lib/errors.server';
import { scopeFilter } from '~/lib/tenancy.server';
import { getAccount, listAccounts } from '~/models/account.server';
import { enqueueJob } from '~/models/job.server';
import { listParcelsBooked, type StatementParcelDoc } from '~/models/parcel-statements.server';
import { insertStatementEntry, listStatementEntries } from '~/models/statement-entry.server';
import { statementEmail } from '~/emails/statement.server';
import { addDays, dayIn } from '~/utils/delivery-headline';
import {
  formatAmount,
  fromMajor,
  minorDigits,
  roundHalfAwayFromZero,
  type Money,
} from '~/utils/money';
import { recordIds } from '~/lib/records.server';
import { zonedDateTimeToUtc } from '~/utils/time-zone';
import { auditRecord, type Actor } from './audit.server';
import { enqueueEmail, type EmailKind } from './email-queue.server';
import type { JobHandler } from './jobs.server';
import { messageIdFor, sendMail } from './mailer.server';
import { deliveryPerformanceReport } from './reports.server';
import { renderStatementPdf } from './statement-render.server';

/**
 * Monthly statements, per account and company month (its local midnight to the next month's):
 * every live parcel booked in the month at its price, the adjustments staff add, the total, the
 * payments recorded and what is outstanding, with the month's first-attempt and on-time rates
 * from the delivery report's own aggregation. Money is kept in the currency's minor units. On
 * the 1st a job e-mails each account its last month's statement, once per account and month.
 */
export const STATEMENT_EMAIL = 'account.statement';
export const STATEMENT_PLANNING_JOB = 'statement.monthly-planning';
/** When (company time, on the 1st) last month's statements go out. */
const STATEMENT_TIME = '06:00';

/**
 * What a parcel is billed at, in minor units of `currency`: the price it was booked at when it
 * has one, else the spec's `cost` (major units, in the company's currency).
 */
export function parcelPriceAmount(
  parcel: Pick<StatementParcelDoc, 'price' | 'cost'>,
  currency: string,
) {
  if (parcel.price && typeof parcel.price.amount === 'number')
    return { amount: parcel.price.amount, currency: parcel.price.currency || currency };
  const cost = parcel.cost ?? 0;
  return { amount: roundHalfAwayFromZero(cost * 10 ** minorDigits(currency)), currency };
}

/** "12.50" in minor units of `currency`; a ValidationError when it has more decimals. */
export function amountFromText(text: string, currency: string, field = 'amount'): number {
  const amount = fromMajor(text, currency);
  if (amount === null)
    throw new ValidationError({
      [field]: [`Enter an amount with at most ${minorDigits(currency)} decimals in ${currency}`],
    });
  return amount;
}

/** The instants a company month starts and ends at, and its first and last day. */
export function monthBounds(month: string) {
  const first = `${month}-01`;
  const [y, m] = month.split('-').map(Number);
  const next = new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
  const timeZone = env.COMPANY_TIMEZONE;
  return {
    first,
    last: addDays(`${next}-01`, -1),
    start: zonedDateTimeToUtc(first, '00:00', timeZone),
    end: zonedDateTimeToUtc(`${next}-01`, '00:00', timeZone),
  };
}

export async function getStatement(accountId: string, month: string) {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  const currency = env.COMPANY_CURRENCY;
  const { first, last, start, end } = monthBounds(month);
  const [docs, entries, performance] = await Promise.all([
    listParcelsBooked(accountId, start, end),
    listStatementEntries(accountId, month),
    deliveryPerformanceReport(
      { from: first, to: last, groupBy: 'account' },
      scopeFilter({ accountId, livemode: true }),
    ),
  ]);
  const parcels = docs.map((doc) => {
    const price = parcelPriceAmount(doc, currency);
    return {
      parcelId: String(doc._id),
      trackingNumber: doc.trackingNumber,
      bookedAt: doc.createdAt.toISOString(),
      serviceType: doc.serviceType ?? '',
      recipientName: doc.recipient?.name ?? '',
      priceAmount: price.amount,
      currency: price.currency,
    };
  });
  const adjustments = entries
    .filter((e) => e.kind !== 'payment')
    .map((e) => ({
      id: e.id,
      kind: e.kind as 'credit' | 'charge',
      amount: e.kind === 'credit' ? -e.amount : e.amount,
      note: e.note,
      createdAt: e.createdAt,
    }));
  const payments = entries
    .filter((e) => e.kind === 'payment')
    .map((e) => ({
      id: e.id,
      amount: e.amount,
      date: e.date,
      note: e.note,
      createdAt: e.createdAt,
    }));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const parcelsAmount = sum(parcels.map((p) => p.priceAmount));
  const adjustmentsAmount = sum(adjustments.map((a) => a.amount));
  const totalAmount = parcelsAmount + adjustmentsAmount;
  const paidAmount = sum(payments.map((p) => p.amount));
  const row = performance.rows.find((r) => r.key === accountId);
  return {
    accountId,
    accountName: account.name,
    month,
    currency,
    parcels,
    adjustments,
    payments,
    parcelsAmount,
    adjustmentsAmount,
    totalAmount,
    paidAmount,
    outstandingAmount: totalAmount - paidAmount,
    delivered: row?.delivered ?? 0,
    firstAttemptRate: row?.firstAttemptRate ?? null,
    onTimeRate: row?.onTimeRate ?? null,
  };
}
export type Statement = Awaited<ReturnType<typeof getStatement>>;

export function statementFilename(statement: Statement, extension: 'csv' | 'pdf') {
  const name = statement.accountName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `statement-${name || statement.accountId}-${statement.month}.${extension}`;
}

/** The statement as CSV: a line per parcel, then per adjustment and payment, then the totals. */
export function statementCsv(statement: Statement): string {
  const { currency } = statement;
  const line = (kind: string, date: string, reference: string, text: string, amount: number) => ({
    kind,
    date,
    reference,
    description: text,
    amount: formatAmount(amount, currency),
    currency,
  });
  const rows = [
    ...statement.parcels.map((p) =>
      line(
        'parcel',
        p.bookedAt.slice(0, 10),
        p.trackingNumber,
        `${p.serviceType} · ${p.recipientName}`,
        p.priceAmount,
      ),
    ),
    ...statement.adjustments.map((a) =>
      line(a.kind, (a.createdAt ?? '').slice(0, 10), '', a.note, a.amount),
    ),
    line('total', statement.month, '', 'Total', statement.totalAmount),
    ...statement.payments.map((p) => line('payment', p.date ?? '', '', p.note, p.amount)),
    line('outstanding', statement.month, '', 'Outstanding', statement.outstandingAmount),
  ];
  return stringify(rows, {
    header: true,
    columns: ['kind', 'date', 'reference', 'description', 'amount', 'currency'],
    ...CSV_ESCAPING,
  });
}

export function statementPdf(statement: Statement): Promise<Buffer> {
  return renderStatementPdf(statement, publicCompanyInfo());
}

/**
 * An amount as staff give it: text in major units (the page's forms), or money in minor units
 * (the API), which must be in the statement's currency.
 */
function entryAmount(amount: string | Money, currency: string): number {
  if (typeof amount === 'string') return amountFromText(amount, currency);
  if (amount.currency !== currency)
    throw new ValidationError(
      { 'amount.currency': [`Statements are in ${currency}`] },
      `The amount must be in the statement’s currency, ${currency}`,
      'currency_mismatch',
    );
  return amount.amount;
}

/** An entry staff add to a statement (an adjustment or a payment), in minor units; audited. */
async function addStatementEntry(
  accountId: string,
  month: string,
  input: {
    kind: 'credit' | 'charge' | 'payment';
    amount: string | Money;
    date?: string;
    note: string;
  },
  actor: Actor,
) {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('Account not found');
  const currency = env.COMPANY_CURRENCY;
  const amount = entryAmount(input.amount, currency);
  const entry = await insertStatementEntry({
    accountId,
    month,
    kind: input.kind,
    amount,
    currency,
    date: input.date ?? null,
    note: input.note,
  });
  await auditRecord(actor, 'create', 'statement', {
    label: `${account.name} ${month}: ${input.kind} ${formatAmount(amount, currency)} ${currency}`,
    after: entry,
  });
  return entry;
}

/**
 * Staff add a credit (lowers the total) or a charge (raises it), with its note: the page gives
 * the kind and the amount as text, the API a signed amount (negative: a credit).
 */
export async function addStatementAdjustment(
  accountId: string,
  month: string,
  input:
    { kind: 'credit' | 'charge'; amount: string; note: string } | { amount: Money; note: string },
  actor: Actor,
) {
  const entry =
    'kind' in input
      ? await addStatementEntry(accountId, month, input, actor)
      : await addStatementEntry(
          accountId,
          month,
          {
            kind: input.amount.amount < 0 ? 'credit' : 'charge',
            amount: { ...input.amount, amount: Math.abs(input.amount.amount) },
            note: input.note,
          },
          actor,
        );
  return {
    ...recordIds(entry.id),
    accountId,
    month,
    kind: entry.kind as 'credit' | 'charge',
    amount: entry.kind === 'credit' ? -entry.amount : entry.amount,
    currency: entry.currency,
    description: entry.note,
    createdAt: entry.createdAt,
  };
}

/**
 * Staff record a payment against the statement: its amount, the day it was received (an
 * instant is read as the company's day; today when not given) and a note or reference.
 */
export async function recordStatementPayment(
  accountId: string,
  month: string,
  input: { amount: string | Money; date?: string; note: string },
  actor: Actor,
) {
  const given = input.date ?? new Date().toISOString();
  const date = given.length > 10 ? dayIn(new Date(given), env.COMPANY_TIMEZONE) : given;
  const entry = await addStatementEntry(
    accountId,
    month,
    { ...input, date, kind: 'payment' },
    actor,
  );
  return {
    ...recordIds(entry.id),
    accountId,
    month,
    amount: entry.amount,
    currency: entry.currency,
    receivedAt: entry.date,
    reference: entry.note,
    createdAt: entry.createdAt,
  };
}

/** The month before the one `day` is in. */
export function previousMonth(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 2, 1)).toISOString().slice(0, 7);
}

/** The 1st of the month after `day`'s. */
function nextFirst(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 10);
}

/**
 * Plans the statements' e-mails of the month before `first` (a 1st: today when today is one,
 * else the coming one, company time), due at STATEMENT_TIME that day: one job per month however
 * often the server starts. Its run queues one e-mail per account, keyed by account and month,
 * then plans the next month's.
 */
export function planStatementEmails(first?: string) {
  const today = dayIn(new Date(), env.COMPANY_TIMEZONE);
  const day = first ?? (today.endsWith('-01') ? today : nextFirst(today));
  const now = new Date();
  const due = zonedDateTimeToUtc(day, STATEMENT_TIME, env.COMPANY_TIMEZONE);
  const month = previousMonth(day);
  return enqueueJob(
    STATEMENT_PLANNING_JOB,
    { month, first: day },
    { runAt: due > now ? due : now, uniqueKey: `statement-planning:${month}` },
  );
}

async function queueStatementEmails(month: string, first: string) {
  await planStatementEmails(nextFirst(first));
  for (const account of await listAccounts()) {
    if (account.status === 'suspended' || !account.email) continue;
    await enqueueEmail(
      { kind: STATEMENT_EMAIL, accountId: account.id, month },
      { uniqueKey: `email:statement:${account.id}:${month}` },
    );
  }
}

/** The kind of job that queues last month's statement e-mails (job-kinds.server.ts). */
export const statementPlanningJob: JobHandler = {
  run: (job) => queueStatementEmails(String(job.payload.month), String(job.payload.first)),
};

/** The statement e-mail: to the account's contact address, its PDF and CSV attached. */
export const statementEmailKind: EmailKind = {
  send: async (payload) => {
    const accountId = String(payload.accountId);
    const month = String(payload.month);
    const account = await getAccount(accountId);
    if (!account?.email) return;
    const statement = await getStatement(accountId, month);
    await sendMail({
      to: account.email,
      ...statementEmail(statement, publicCompanyInfo()),
      attachments: [
        {
          filename: statementFilename(statement, 'pdf'),
          content: await statementPdf(statement),
          contentType: 'application/pdf',
        },
        {
          filename: statementFilename(statement, 'csv'),
          content: statementCsv(statement),
          contentType: 'text/csv',
        },
      ],
      messageId: messageIdFor(`statement-${accountId}-${month}`),
    });
  },
};
