import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { Job } from '~/models/job.server';
import { Parcel } from '~/models/parcel.server';
import { loader as statementLoader } from '~/routes/api.accounts.$id.statements.$month';
import { action as paymentsAction } from '~/routes/api.accounts.$id.statements.$month.payments';
import { action as adjustmentsAction } from '~/routes/api.accounts.$id.statements.$month.adjustments';
import { action as staffStatementAction } from '~/routes/dashboard.accounts.$accountId.statements.$month';
import { deliveryPerformanceReport } from '~/services/reports.server';
import {
  addStatementAdjustment,
  planStatementEmails,
  recordStatementPayment,
  STATEMENT_PLANNING_JOB,
  statementPlanningJob,
} from '~/services/statements.server';
import { dayIn } from '~/utils/delivery-headline';
import { callRoute, jsonOf } from '../support/api';
import {
  atCompanyTime,
  createAccount,
  createParcel,
  createTwoAccounts,
  type TestUser,
} from '../support/factories';
import { startMailWorker, type MailWorker } from '../support/jobs';

const MONTH = '2026-10';

let staff: TestUser;
let account: Awaited<ReturnType<typeof createAccount>>;
let other: Awaited<ReturnType<typeof createAccount>>;
let key: Record<string, string>;
let otherKey: Record<string, string>;
let outbox: MailWorker;
const numbers: Record<string, string> = {};

/** A parcel booked at `bookedAt` (company time), stored as it was then. */
async function booked(label: string, bookedAt: Date, fields: Record<string, unknown>) {
  const parcel = await createParcel(fields);
  // Straight to the collection: mongoose keeps createdAt as it was made.
  await Parcel.collection.updateOne(
    { _id: (parcel as { _id?: unknown })._id as never },
    { $set: { createdAt: bookedAt } },
  );
  numbers[label] = parcel.trackingNumber;
  return parcel;
}

beforeAll(async () => {
  await connectDb();
  outbox = await startMailWorker();
  ({ staff, account, other, key, otherKey } = await createTwoAccounts(
    { email: 'billing@statement.example' },
    { name: 'Other Books', email: 'billing@other.example' },
  ));
  const own = { accountId: account.id, livemode: true };
  // Booked at its price; booked before prices, at its cost; delivered on time at the first
  // attempt; and delivered late after a failed attempt.
  await booked('priced', atCompanyTime('2026-10-01', '00:10'), {
    ...own,
    price: { amount: 1250, currency: 'USD' },
  });
  await booked('costed', atCompanyTime('2026-10-15', '12:00'), { ...own, cost: 25.99 });
  // Priced in cents, expected on a day and delivered on another at 11:00.
  const delivered = (amount: number, expected: string, day: string) => ({
    ...own,
    price: { amount, currency: 'USD' },
    status: 'Delivered',
    estimatedDelivery: new Date(`${expected}T00:00:00Z`),
    actualDelivery: atCompanyTime(day, '11:00'),
  });
  await booked(
    'onTime',
    atCompanyTime('2026-10-02', '09:00'),
    delivered(999, '2026-10-05', '2026-10-05'),
  );
  await booked('late', atCompanyTime('2026-10-31', '23:50'), {
    ...delivered(1999, '2026-10-06', '2026-10-08'),
    events: [
      { status: 'Delivered', timestamp: atCompanyTime('2026-10-08', '11:00'), location: 'Door' },
      {
        status: 'Failed Delivery',
        timestamp: atCompanyTime('2026-10-07', '11:00'),
        location: 'Door',
      },
    ],
  });
  // Not on it: the next month, the account's test data, another account's.
  await booked('november', atCompanyTime('2026-11-01', '00:10'), { ...own, cost: 9.99 });
  await booked('test', atCompanyTime('2026-10-10', '12:00'), {
    accountId: account.id,
    livemode: false,
    cost: 9.99,
  });
  await booked('others', atCompanyTime('2026-10-10', '12:00'), { accountId: other.id, cost: 9.99 });
  const actor = { user: staff.user, context: null };
  await addStatementAdjustment(
    account.id,
    MONTH,
    { kind: 'credit', amount: '5.00', note: 'Late delivery' },
    actor,
  );
  await addStatementAdjustment(
    account.id,
    MONTH,
    { kind: 'charge', amount: '2.50', note: 'Oversize' },
    actor,
  );
  await recordStatementPayment(
    account.id,
    MONTH,
    { amount: '30', date: '2026-11-03', note: 'Transfer' },
    actor,
  );
});

afterAll(async () => {
  await outbox?.stop();
});

const read = (accountId: string, headers: Record<string, string>, format = '') =>
  callRoute(statementLoader, `/api/accounts/${accountId}/statements/${MONTH}${format}`, {
    headers,
    params: { id: accountId, month: MONTH },
  });

/** The account's statement of the month as staff read it. */
const statementForStaff = async (accountId: string) =>
  (await jsonOf(await read(accountId, staff.auth), 200)).statement;

describe('statements', () => {
  it("list the account's parcels of the company month at their prices, adjustments, payments and the report's rates", async () => {
    const res = await read(account.id, key);
    expect(res.status).toBe(200);
    const { statement } = await res.json();
    expect(statement.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([
      numbers.priced,
      numbers.onTime,
      numbers.costed,
      numbers.late,
    ]);
    expect(statement.parcels.map((p: { priceAmount: number }) => p.priceAmount)).toEqual([
      1250, 999, 2599, 1999,
    ]);
    expect(statement).toMatchObject({
      currency: 'USD',
      parcelsAmount: 6847,
      adjustmentsAmount: -250,
      totalAmount: 6597,
      paidAmount: 3000,
      outstandingAmount: 3597,
      delivered: 2,
      firstAttemptRate: 0.5,
      onTimeRate: 0.5,
    });
    const report = await deliveryPerformanceReport({
      from: '2026-10-01',
      to: '2026-10-31',
      groupBy: 'account',
    });
    const row = report.rows.find((r) => r.key === account.id)!;
    expect([row.firstAttemptRate, row.onTimeRate]).toEqual([
      statement.firstAttemptRate,
      statement.onTimeRate,
    ]);

    // Staff read it too, and as CSV and PDF; another account's key finds nothing.
    const csv = await read(account.id, staff.auth, '?format=csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text).toContain(`parcel,2026-10-15,${numbers.costed}`);
    expect(text).toContain('outstanding,2026-10,,Outstanding,35.97,USD');
    const pdf = await read(account.id, key, '?format=pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    expect((await read(account.id, otherKey)).status).toBe(404);
  });

  it('are e-mailed once per account and month, however often the month is planned', async () => {
    await planStatementEmails('2026-11-01');
    await planStatementEmails('2026-11-01');
    const planning = await Job.find({
      type: STATEMENT_PLANNING_JOB,
      'payload.month': MONTH,
    }).lean();
    expect(planning).toHaveLength(1);
    await statementPlanningJob.run({ payload: planning[0]!.payload } as never);
    await statementPlanningJob.run({ payload: planning[0]!.payload } as never);
    const mail = await outbox.smtp.waitForMessage('billing@statement.example');
    expect(mail.subject).toContain(MONTH);
    expect(mail.text).toContain('Outstanding: 35.97 USD');
    expect(mail.attachments.map((a) => a.contentType).sort()).toEqual([
      'application/pdf',
      'text/csv',
    ]);
    await outbox.smtp.waitForMessage('billing@other.example');
    await outbox.worker.idle();
    const to = (email: string) =>
      outbox.smtp.messages.filter((m) => [m.to].flat().some((t) => t?.text.includes(email)));
    expect(to('billing@statement.example')).toHaveLength(1);
    expect(
      await Job.exists({ type: STATEMENT_PLANNING_JOB, 'payload.month': '2026-11' }),
    ).toBeTruthy();
  });

  it('take payments and adjustments from staff on the dashboard, refusing a bad amount', async () => {
    const path = `/dashboard/accounts/${other.id}/statements/${MONTH}`;
    const params = { accountId: other.id, month: MONTH };
    const bad = await callRoute(staffStatementAction, path, {
      headers: { Cookie: staff.cookie },
      params,
      form: { intent: 'pay', amount: '1.005', date: '2026-11-02', note: '' },
    });
    expect(bad.status).toBe(400);
    const paid = await callRoute(staffStatementAction, path, {
      headers: { Cookie: staff.cookie },
      params,
      form: { intent: 'pay', amount: '4.99', date: '2026-11-02', note: 'Card' },
    });
    expect(paid.status).toBe(302);
    expect(await statementForStaff(other.id)).toMatchObject({
      totalAmount: 999,
      paidAmount: 499,
      outstandingAmount: 500,
    });
  });

  it('take payments and adjustments through the API from staff, in the statement’s currency', async () => {
    const third = await createAccount({ name: 'Third Books', email: 'billing@third.example' });
    const post = (
      action: unknown,
      what: string,
      body: unknown,
      headers: Record<string, string> = staff.auth,
      accountId = third.id,
    ) =>
      callRoute(action, `/api/accounts/${accountId}/statements/${MONTH}/${what}`, {
        headers,
        params: { id: accountId, month: MONTH },
        body,
      });
    const credit = await post(adjustmentsAction, 'adjustments', {
      description: 'Late delivery',
      amount: { amount: -500, currency: 'USD' },
    });
    expect(credit.status).toBe(201);
    expect((await credit.json()).adjustment).toMatchObject({
      kind: 'credit',
      amount: -500,
      currency: 'USD',
      description: 'Late delivery',
      month: MONTH,
    });
    const charge = await post(adjustmentsAction, 'adjustments', {
      description: 'Oversize',
      amount: { amount: 1500, currency: 'USD' },
    });
    expect((await charge.json()).adjustment).toMatchObject({ kind: 'charge', amount: 1500 });
    const paid = await post(paymentsAction, 'payments', {
      amount: { amount: 700, currency: 'USD' },
      reference: 'Transfer 42',
      receivedAt: '2026-11-02T23:30:00Z',
    });
    expect(paid.status).toBe(201);
    expect((await paid.json()).payment).toMatchObject({
      amount: 700,
      reference: 'Transfer 42',
      receivedAt: dayIn(new Date('2026-11-02T23:30:00Z'), env.COMPANY_TIMEZONE),
    });

    // Refused: another currency, a zero, an unknown field, an account's key, an unknown account.
    const euro = await post(paymentsAction, 'payments', {
      amount: { amount: 100, currency: 'EUR' },
    });
    expect(euro.status).toBe(400);
    expect((await euro.json()).code).toBe('currency_mismatch');
    const zero = await post(adjustmentsAction, 'adjustments', {
      description: 'Nothing',
      amount: { amount: 0, currency: 'USD' },
    });
    expect(zero.status).toBe(400);
    const extra = await post(paymentsAction, 'payments', {
      amount: { amount: 100, currency: 'USD' },
      paid: true,
    });
    expect(extra.status).toBe(400);
    const shipper = await post(
      paymentsAction,
      'payments',
      { amount: { amount: 100, currency: 'USD' } },
      key,
    );
    expect(shipper.status).toBe(403);
    const unknown = await post(
      paymentsAction,
      'payments',
      { amount: { amount: 100, currency: 'USD' } },
      staff.auth,
      '665f1c2ab4d3e8a1c0ffee99',
    );
    expect(unknown.status).toBe(404);

    expect(await statementForStaff(third.id)).toMatchObject({
      adjustmentsAmount: 1000,
      totalAmount: 1000,
      paidAmount: 700,
      outstandingAmount: 300,
    });
  });
});
