import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '~/api-routes.server';
import { routePath } from '~/http/openapi.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { createWebhook, Webhook } from '~/models/webhook.server';
import { ApiKey } from '~/models/api-key.server';
import { insertShipperUser, User } from '~/models/user.server';
import { insertPickup, Pickup } from '~/models/pickup.server';
import { insertBookingBatch } from '~/models/booking-batch.server';
import { sessionCookie } from '../support/sign-in';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';
import {
  createAccount,
  createAccountKey,
  createEvent,
  createParcel,
  createUser,
} from '../support/factories';

/**
 * Tenancy, proven: every /api route (as app/api-routes.server.ts lists them, which the OpenAPI
 * test holds to the route files) is tried with every method it declares, by account A's live and
 * test keys, on the records of account B, of the company and of A's other mode. A request naming
 * another's record must end at 401, 403, 404 or 405, before its body is read; any answer must
 * carry nothing of another's. So is every page of the portal (app/routes/account.*), by a
 * shipper of account A. The counts are printed.
 */

type Foreign = { parcel: { id: string; trackingNumber: string }; markers: string[] };

const OK_FOR_FOREIGN_IDS = new Set([401, 403, 404, 405]);

let keys: Record<'live' | 'test', Record<string, string>>;
let foreign: Record<'live' | 'test', Foreign[]>;
let ids: {
  webhook: string;
  account: string;
  event: string;
  proof: string;
  user: string;
  key: string;
  pickup: string;
  batch: string;
};
let shipperCookie: string;

beforeAll(async () => {
  await connectDb();
  const admin = await createUser('admin');
  const [a, b] = [await createAccount(), await createAccount({ name: 'Foreign Books' })];
  const shipper = await insertShipperUser({
    accountId: a.id,
    accountRole: 'admin',
    name: 'A shipper',
    email: 'shipper@a.example',
    accessNonce: 'x',
    accessExpires: new Date(),
  });
  shipperCookie = await sessionCookie(shipper.id);
  keys = {
    live: (await createAccountKey(a, admin)).auth,
    test: (await createAccountKey(a, admin, { mode: 'test' })).auth,
  };
  const parcelOf = async (label: string, fields: Record<string, unknown>) => {
    const parcel = await createParcel({
      ...fields,
      recipient: { name: `Recipient ${label}`, address: '2 High St' },
    });
    return {
      parcel,
      markers: [parcel.id, parcel.trackingNumber, `Recipient ${label}`],
    };
  };
  const ofB = await parcelOf('of B', { accountId: b.id });
  const ofBTest = await parcelOf('of B test', { accountId: b.id, livemode: false });
  const company = await parcelOf('of the company', {});
  const aLive = await parcelOf('of A live', { accountId: a.id });
  const aTest = await parcelOf('of A test', { accountId: a.id, livemode: false });
  const event = await createEvent(ofB.parcel.id, 'In Transit');
  const { proof } = await recordProofOfDelivery(ofB.parcel.id, {
    receivedBy: 'B Receiver',
    destination: 0,
    note: '',
    signatureName: '',
    photo: [],
  });
  const hook = await createWebhook(
    { url: 'https://hooks.foreign.example/b', events: ['parcel.created'], description: '' },
    b.id,
  );
  const userOfB = await insertShipperUser({
    accountId: b.id,
    accountRole: 'member',
    name: 'B shipper',
    email: 'shipper@b.example',
    accessNonce: 'x',
    accessExpires: new Date(),
  });
  const keyOfB = await createAccountKey(b, admin);
  const batchOfB = '665f1c2ab4d3e8a1c0ffbb01';
  await insertBookingBatch({
    id: batchOfB,
    scope: { accountId: b.id, livemode: true },
    userId: userOfB.id,
    parcelIds: [ofB.parcel.id],
    totalAmount: 999,
    currency: 'USD',
  });
  const pickup = await insertPickup({
    scope: { accountId: b.id, livemode: true },
    date: '2026-06-01',
    window: { from: '09:00', until: '12:00' },
    address: {
      address: '9 Foreign Rd',
      city: 'Foreign',
      region: '',
      postalCode: '',
      country: 'US',
    },
    depotId: null,
    parcelIds: [ofB.parcel.id],
    parcelCount: 1,
    notes: '',
  });
  ids = {
    webhook: hook.webhook.id,
    account: b.id,
    event: event.id,
    proof: proof.id,
    user: userOfB.id,
    key: keyOfB.apiKey.id,
    pickup: pickup.id,
    batch: batchOfB,
  };
  const others = [ofB, ofBTest, company];
  const bMarkers = [
    b.id,
    'Foreign Books',
    hook.webhook.id,
    'hooks.foreign.example',
    ids.user,
    'shipper@b.example',
    ids.key,
  ];
  foreign = {
    live: [...others, aTest].map((f) => ({ ...f, markers: [...f.markers, ...bMarkers] })),
    test: [...others, aLive].map((f) => ({ ...f, markers: [...f.markers, ...bMarkers] })),
  };
});

afterAll(async () => {
  await disconnectDb();
});

/** The value of a URL parameter naming `target`'s records on this path. */
function paramValue(routeFile: string, name: string, target: Foreign, byNumber: boolean) {
  if (name === 'proofId') return ids.proof;
  if (name === 'month') return '2026-11';
  if (name === 'eventId') return ids.event;
  if (name === 'deliveryId' || name === 'fileId') return ids.event;
  if (routeFile.startsWith('api.webhooks')) return ids.webhook;
  if (routeFile.startsWith('api.pickups')) return ids.pickup;
  if (routeFile.startsWith('api.accounts')) return ids.account;
  if (routeFile.startsWith('api.tracking.events')) return ids.event;
  return byNumber ? target.parcel.trackingNumber : target.parcel.id;
}

/** What each portal page's forms post to change another account's user, key or endpoint. */
const FOREIGN_FORMS: Record<string, (() => Record<string, string>) | null> = {
  // Adds an endpoint of the account's own: it names no record.
  'account.webhooks._index.tsx': null,
  'account.users.tsx': () => ({ intent: 'user-status', userId: ids.user, disabled: 'true' }),
  'account.api-keys.tsx': () => ({ intent: 'revoke', keyId: ids.key }),
  'account.webhooks.$webhookId.tsx': () => ({ intent: 'delete' }),
  'account.pickups.tsx': () => ({ intent: 'cancel', pickupId: ids.pickup }),
  // Books at a quote: another account's is refused as quote_not_found, nothing booked (prices.test).
  'account.send.tsx': null,
  // Books from a CSV: names no record at all (bulk-booking.test has another's booking as 404).
  'account.send_.bulk.tsx': null,
};

const BODIES: Record<string, unknown> = {
  POST: { status: 'In Transit', to: 'Delivered', name: 'x', scopes: ['read'], mode: 'live' },
  PUT: { status: 'suspended', active: false, priority: 'High' },
  PATCH: {},
  DELETE: undefined,
};

describe('tenancy', () => {
  it("lets no account key or shipper reach another account's, the company's or the other mode's records", async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'false';
    const files = fs
      .readdirSync(path.resolve('app/routes'))
      .filter((f) => f.startsWith('api.') && f !== 'api.$.ts');
    const routes = apiRoutes();
    expect(routes.map((r) => r.file).sort()).toEqual(files.sort());

    const leaks: string[] = [];
    let requests = 0;
    let operations = 0;
    let publicOps = 0;
    for (const { file, entry } of routes) {
      const pattern = routePath(file);
      const params = [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      for (const [method, operation] of Object.entries(entry.operations)) {
        operations += 1;
        if (operation.access === 'public') {
          publicOps += 1;
          continue;
        }
        const callers = [
          ['live key', keys.live, 'live'],
          ['test key', keys.test, 'test'],
          ['shipper', { Cookie: shipperCookie }, 'live'],
        ] as const;
        for (const [who, credential, mode] of callers) {
          for (const target of foreign[mode]) {
            for (const byNumber of params.length ? [false, true] : [false]) {
              const values = Object.fromEntries(
                params.map((name) => [name, paramValue(file, name, target, byNumber)]),
              );
              let url = pattern.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
              if (!params.length && method === 'GET')
                url += `?account=${ids.account}&mode=${mode === 'live' ? 'test' : 'live'}`;
              const body = BODIES[method];
              const request = new Request(`http://localhost${url}`, {
                method,
                headers: {
                  ...credential,
                  ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
                },
                body: body === undefined ? undefined : JSON.stringify(body),
              });
              requests += 1;
              const response = await Promise.resolve(
                entry({ request, params: values, context: { clientAddress: '10.9.9.9' } }),
              ).catch((thrown: Response) => thrown);
              const text = await response.text();
              const where = `${method} ${url} (${who}) → ${response.status}`;
              if (params.length && !OK_FOR_FOREIGN_IDS.has(response.status))
                leaks.push(`${where}: went past the tenancy check`);
              // A number the request gave may be said back (as for any unknown number); nothing else.
              const seen = target.markers.find(
                (marker) => text.includes(marker) && !url.includes(marker),
              );
              if (seen) leaks.push(`${where}: shows ${seen}`);
            }
          }
        }
      }
    }
    console.info(
      `Tenancy: ${routes.length} API routes, ${operations} operations (${publicOps} public, the same for anyone), ${requests} requests by account keys and a shipper on others' records, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    // About 1,400 requests: seconds alone, longer on a machine busy with other suites.
  }, 120_000);

  it("lets no shipper of the account reach another's records through the portal's pages", async () => {
    const pages = fs
      .readdirSync(path.resolve('app/routes'))
      .filter((f) => /^account[._]/.test(f) && !f.startsWith('account_.'));
    expect(pages.length).toBeGreaterThan(3);
    const leaks: string[] = [];
    let requests = 0;
    for (const file of pages) {
      const module = (await import(`../../app/routes/${file.replace(/\.tsx?$/, '')}`)) as {
        loader?: (args: unknown) => Promise<Response>;
      };
      if (!module.loader) continue;
      const pattern = `/${file
        .replace(/\.tsx?$/, '')
        .replace(/\[\.\]/g, '\u0000')
        .split('.')
        .filter((part) => part !== '_index')
        .join('/')
        .replace('\u0000', '.')}`;
      for (const target of foreign.live) {
        const value = (name: string) =>
          name === 'webhookId' ? ids.webhook : name === 'batchId' ? ids.batch : target.parcel.id;
        const url = pattern.replace(/\$(\w+)/g, (_, name: string) => value(name));
        const params = Object.fromEntries(
          [...pattern.matchAll(/\$(\w+)/g)].map((m) => [m[1]!, value(m[1]!)]),
        );
        const query = pattern.includes('$') ? '' : `?search=${target.parcel.trackingNumber}`;
        requests += 1;
        const response = await module
          .loader({
            request: new Request(`http://localhost${url}${query}`, {
              headers: { Cookie: shipperCookie },
            }),
            params,
            context: { clientAddress: '10.9.9.8' },
          })
          .catch((thrown: Response) => thrown);
        const text = await response.text();
        const where = `GET ${url}${query} (shipper) → ${response.status}`;
        if (pattern.includes('$') && response.status !== 404) leaks.push(`${where}: found it`);
        const seen = target.markers.find(
          (marker) => text.includes(marker) && !`${url}${query}`.includes(marker),
        );
        if (seen) leaks.push(`${where}: shows ${seen}`);
      }
    }
    // Every form of the portal, posted by the account's admin naming another account's record.
    let posts = 0;
    for (const file of pages) {
      const module = (await import(`../../app/routes/${file.replace(/\.tsx?$/, '')}`)) as {
        action?: (args: unknown) => Promise<Response>;
      };
      if (!module.action) continue;
      const form = FOREIGN_FORMS[file];
      if (form === null) continue;
      if (!form) {
        leaks.push(`${file}: has an action that FOREIGN_FORMS does not try`);
        continue;
      }
      posts += 1;
      const response = await module
        .action({
          request: new Request(`http://localhost/account/${file}`, {
            method: 'POST',
            headers: {
              Cookie: shipperCookie,
              'Content-Type': 'application/x-www-form-urlencoded',
            },
            body: new URLSearchParams(form()),
          }),
          params: { webhookId: ids.webhook },
          context: { clientAddress: '10.9.9.8' },
        })
        .catch((thrown: Response) => thrown);
      if (response.status !== 404) leaks.push(`POST ${file} (shipper) → ${response.status}`);
    }
    expect(await User.findById(ids.user).lean()).toMatchObject({ disabled: false });
    expect(await ApiKey.exists({ _id: ids.key })).toBeTruthy();
    expect(await Webhook.exists({ _id: ids.webhook })).toBeTruthy();
    expect(await Pickup.findById(ids.pickup).lean()).toMatchObject({ status: 'scheduled' });
    console.info(
      `Tenancy: ${pages.length} portal pages, ${requests} requests and ${posts} forms by a shipper on others' records, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
  });
});
