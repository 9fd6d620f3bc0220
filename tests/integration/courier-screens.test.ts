import { beforeAll, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { loader as notifications } from '~/routes/dashboard.notifications';
import { action as receiptsAction, loader as receipts } from '~/routes/dashboard.receipts';
import { callRoute } from '../support/api';
import { createUsers, type TestUser } from '../support/factories';

/**
 * A courier works from the scan station (where signing in lands them: tests/server/staff-screens):
 * the office's receipts and notifications are not theirs, while viewers still read them.
 */
let users: Record<'courier' | 'viewer', TestUser>;

beforeAll(async () => {
  await connectDb();
  users = await createUsers(['courier', 'viewer'], 'screens');
});

const page = (loader: unknown, path: string, role: 'courier' | 'viewer') =>
  callRoute(loader, path, { cookie: users[role].cookie });

it("the office's receipts and notifications answer a courier 403, and still open for a viewer", async () => {
  for (const [loader, path] of [
    [receipts, '/dashboard/receipts'],
    [notifications, '/dashboard/notifications'],
  ] as const) {
    const refused = await page(loader, path, 'courier').catch((thrown: Response) => thrown);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'This page is for viewers, staff and admins: couriers work from Scan',
    });
    expect((await page(loader, path, 'viewer')).status).toBe(200);
  }
  const told = await callRoute(receiptsAction, '/dashboard/receipts', {
    method: 'POST',
    cookie: users.courier.cookie,
    form: { intent: 'printed', receiptId: '0123456789abcdef01234567' },
  }).catch((thrown: Response) => thrown);
  expect(told.status).toBe(403);
});
