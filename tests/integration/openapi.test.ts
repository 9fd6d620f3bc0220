import { API_ERROR_CODES } from '~/schemas/api-error-codes';
import fs from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as docsLoader } from '~/routes/api.docs';
import { action as keysAction, loader as keysLoader } from '~/routes/api.api-keys';
import { loader as meLoader } from '~/routes/api.auth.me';
import { loader as statsLoader } from '~/routes/api.dashboard.stats';
import { loader as recentTrackingLoader } from '~/routes/api.dashboard.recent-tracking';
import { loader as healthLoader } from '~/routes/api.health';
import {
  action as notificationsAction,
  loader as notificationsLoader,
} from '~/routes/api.notifications';
import { loader as openApiLoader } from '~/routes/api.openapi[.]json';
import { action as parcelAction, loader as parcelLoader } from '~/routes/api.parcels.$id';
import { loader as labelLoader } from '~/routes/api.parcels.$id.label[.]pdf';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { action as importAction } from '~/routes/api.parcels.import';
import { action as generateAction } from '~/routes/api.receipts.generate.$parcelId';
import { loader as receiptsLoader } from '~/routes/api.receipts';
import {
  action as eventsAction,
  loader as eventsLoader,
} from '~/routes/api.tracking.$parcelId.events';
import { loader as trackLoader } from '~/routes/api.tracking.track.$trackingNumber';
import { action as batchAction } from '~/routes/api.tracking.track';
import { action as subscribeAction } from '~/routes/api.tracking.track.$trackingNumber.subscriptions';
import { action as webhooksAction } from '~/routes/api.webhooks';
import { loader as deliveriesLoader } from '~/routes/api.webhooks.$id.deliveries';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import type { ApiEntry } from '~/http/api.server';
import { routePath } from '~/http/openapi.server';
import { apiOperationList, apiRoutes } from '~/api-routes.server';

const OPENAPI_OPERATIONS = apiOperationList();
import { callRoute, uniqueAddress } from '../support/api';
import { checkAgainstDocument, contractViolations } from '../support/contract';
import { createApiKey, createUser } from '../support/factories';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: Json;
  webhooks: Json;
};
type Json = Record<string, unknown>;

let doc: Doc;
let auth: Record<string, string>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
let checked = 0;

beforeAll(async () => {
  await connectDb();
  env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  const admin = await createUser('admin', { username: 'openapi' });
  ({ auth } = await createApiKey(['read', 'write', 'admin'], admin));
  const res = await callRoute(openApiLoader, '/api/openapi.json');
  doc = await res.json();
});

afterAll(async () => {
  await disconnectDb();
});

/** The route files of the API: every one but the catch-all and the docs page. */
function apiRouteFiles() {
  return fs
    .readdirSync(path.resolve('app/routes'))
    .filter((f) => f.startsWith('api.') && !['api.$.ts', 'api.docs.tsx'].includes(f));
}

/** Checks an answer against the document's schema for that path, method and status. */
async function expectDocumented(docPath: string, method: string, res: Response) {
  const operation = doc.paths[docPath]?.[method];
  expect(operation, `${method} ${docPath} is documented`).toBeDefined();
  const response = operation!.responses[String(res.status)] as Json | undefined;
  expect(response, `${method} ${docPath} documents ${res.status}`).toBeDefined();
  const content = response!.content as Record<string, { schema: Json }> | undefined;
  const body = res.status === 304 ? '' : await res.clone().text();
  if (!content) return expect(body).toBe('');
  const cacheKey = `${method} ${docPath} ${res.status}`;
  let check = validators.get(cacheKey);
  if (!check) {
    check = ajv.compile({
      $id: `urn:check:${validators.size}`,
      components: doc.components,
      ...content['application/json']!.schema,
    });
    validators.set(cacheKey, check);
  }
  const valid = check(JSON.parse(body));
  expect(valid, `${cacheKey}: ${JSON.stringify(check.errors)}`).toBe(true);
  checked += 1;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by a maintained parser', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it('lists every path of the spec and every /api route of the app', () => {
    const spec = [
      'post /api/auth/login',
      'post /api/auth/logout',
      'get /api/auth/me',
      'get /api/parcels',
      'post /api/parcels',
      'get /api/parcels/{id}',
      'put /api/parcels/{id}',
      'delete /api/parcels/{id}',
      'get /api/parcels/{id}/label.pdf',
      'get /api/tracking/{parcelId}/events',
      'post /api/tracking/{parcelId}/events',
      'put /api/tracking/events/{id}',
      'delete /api/tracking/events/{id}',
      'get /api/tracking/track/{trackingNumber}',
      'get /api/notifications',
      'post /api/notifications',
      'put /api/notifications/{id}',
      'delete /api/notifications/{id}',
      'post /api/notifications/{id}/retry',
      'get /api/receipts',
      'get /api/receipts/{id}',
      'post /api/receipts/generate/{parcelId}',
      'put /api/receipts/{id}',
      'delete /api/receipts/{id}',
      'get /api/dashboard/stats',
      'get /api/dashboard/recent-parcels',
      'get /api/dashboard/recent-tracking',
      'get /api/health',
      'post /api/api-keys',
      'get /api/api-keys',
      'delete /api/api-keys/{id}',
      'post /api/webhooks',
      'get /api/webhooks',
      'get /api/webhooks/{id}',
      'put /api/webhooks/{id}',
      'delete /api/webhooks/{id}',
      'get /api/webhooks/{id}/deliveries',
      'post /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      'get /api/openapi.json',
      'post /api/parcels/import',
    ];
    for (const entry of spec) {
      const [method, p] = entry.split(' ') as [string, string];
      expect(doc.paths[p]?.[method], entry).toBeDefined();
    }
    // Every API route file has its path in the document (the catch-all and the docs page aside).
    const documented = new Set(OPENAPI_OPERATIONS.map((op) => op.path));
    for (const file of apiRouteFiles()) {
      const urlPath = routePath(file);
      expect(documented.has(urlPath), `${file} → ${urlPath}`).toBe(true);
    }
  });

  it('is assembled from every API route file, each of whose methods is declared', async () => {
    const files = fs
      .readdirSync(path.resolve('app/routes'))
      .filter((f) => f.startsWith('api.') && f !== 'api.$.ts')
      .sort();
    expect(
      apiRoutes()
        .map((r) => r.file)
        .sort(),
      'app/api-routes.server.ts lists every API route file',
    ).toEqual(files);
    for (const { file, entry } of apiRoutes()) {
      const route = (await import(path.resolve('app/routes', file))) as { loader: ApiEntry };
      expect(route.loader, file).toBe(entry);
      for (const method of entry.methods.filter((m) => m !== 'OPTIONS'))
        expect(entry.operations[method]?.summary, `${file}: ${method} is declared`).toBeTruthy();
    }
  });

  it('documents exactly the methods each route declares', async () => {
    for (const file of apiRouteFiles()) {
      const route = (await import(path.resolve('app/routes', file))) as { loader: ApiEntry };
      const declared = route.loader.methods
        .filter((m) => m !== 'OPTIONS')
        .map((m) => m.toLowerCase());
      const inDocument = OPENAPI_OPERATIONS.filter((op) => op.path === routePath(file)).map(
        (op) => op.method,
      );
      expect(declared.sort(), file).toEqual(inDocument.sort());
    }
  });

  it('describes the auth schemes, the rate-limit headers and every webhook event', () => {
    const components = doc.components as { securitySchemes: Json; headers: Json };
    expect(components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    const track = doc.paths['/api/tracking/track/{trackingNumber}']!.get!.responses;
    for (const status of ['200', '404', '429'])
      expect(Object.keys(track[status]!.headers as Json)).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    expect(Object.keys(track['429']!.headers as Json)).toContain('Retry-After');
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'notification.failed',
      'notification.sent',
      'parcel.created',
      'parcel.deleted',
      'parcel.delivered',
      'parcel.delivery_failed',
      'parcel.delivery_preferences_updated',
      'parcel.eta_updated',
      'parcel.imported',
      'parcel.scanned',
      'parcel.status_changed',
      'parcel.updated',
      'pickup.cancelled',
      'pickup.completed',
      'pickup.missed',
      'pickup.scheduled',
      'tracking_event.created',
      'tracking_event.deleted',
      'tracking_event.updated',
    ]);
    // The request bodies are the routes' own zod schemas.
    const create = doc.paths['/api/parcels']!.post as unknown as {
      requestBody: { content: { 'application/json': { schema: Json } } };
    };
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['recipient'],
    });
  });
});

/** Every `example` in the document, with the place of the schema it must satisfy. */
function examples(node: unknown, where: string[] = []): Array<[string[], unknown]> {
  if (!node || typeof node !== 'object') return [];
  const found: Array<[string[], unknown]> = [];
  const here = node as Json;
  if ('example' in here && here.schema) found.push([[...where, 'schema'], here.example]);
  for (const [key, value] of Object.entries(here))
    if (key !== 'example') found.push(...examples(value, [...where, key]));
  return found;
}

const operationsOf = (d: Doc) =>
  Object.entries(d.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path: p, method, op: op as unknown as Json })),
  );

describe('the document states what the server enforces', () => {
  it("passes redocly's recommended rules with no error or warning", async () => {
    const config = await createConfig(fs.readFileSync('redocly.yaml', 'utf8'));
    const saved = env.PUBLIC_URL;
    env.PUBLIC_URL = 'https://api.swiftship.test';
    const served = await (await callRoute(openApiLoader, '/api/openapi.json')).text();
    env.PUBLIC_URL = saved;
    const problems = await lintFromString({
      source: served,
      absoluteRef: 'openapi.json',
      config,
    });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('gives every operation a description and examples that satisfy their schemas', async () => {
    for (const { path: p, method, op } of operationsOf(doc)) {
      expect(String(op.description ?? '').length, `${method} ${p}`).toBeGreaterThan(30);
      const found = examples(op);
      const answers = found.filter(([where]) => where[0] === 'responses');
      expect(answers.length, `${method} ${p} has answer examples`).toBeGreaterThan(0);
      if (op.requestBody)
        expect(
          found.some(([where]) => where[0] === 'requestBody'),
          `${method} ${p} has a request example`,
        ).toBe(true);
    }
    const all = [...examples(doc.paths, ['paths']), ...examples(doc.webhooks, ['webhooks'])];
    expect(all.length).toBeGreaterThan(300);
    for (const [where, value] of all)
      expect(await checkAgainstDocument(where, value), where.join(' ')).toBeNull();
  });

  it('closes every JSON request body but Stripe’s events, as the server refuses unknown fields', () => {
    const schemas = doc.components.schemas as Record<string, Json>;
    const resolved = (schema: Json): Json =>
      typeof schema.$ref === 'string' ? resolved(schemas[schema.$ref.split('/').pop()!]!) : schema;
    const closed = (schema: Json): boolean => {
      const s = resolved(schema);
      const choices = (s.oneOf ?? s.anyOf) as Json[] | undefined;
      return choices ? choices.every(closed) : s.additionalProperties === false;
    };
    const open: string[] = [];
    let bodies = 0;
    for (const [p, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
        const content = (operation.requestBody as Json | undefined)?.content as
          Record<string, { schema: Json }> | undefined;
        const json = content?.['application/json'];
        if (!json) continue;
        bodies += 1;
        if (!closed(json.schema)) open.push(`${method} ${p}`);
      }
    expect(bodies).toBeGreaterThan(30);
    // Stripe adds fields to its events as it pleases: that one body is read as Stripe sends it.
    expect(open).toEqual(['post /api/stripe/webhook']);
  });

  it('gives each path parameter its own pattern', () => {
    const param = (p: string, method: string, name: string) =>
      ((doc.paths[p]![method] as unknown as Json).parameters as Json[]).find(
        (x) => x.name === name,
      )!.schema as Json;
    const matches = (schema: Json, value: string) =>
      ajv.compile({ $id: `urn:param:${Math.random()}`, ...schema })(value);
    const template = param('/api/notification-templates/{id}', 'get', 'id');
    expect(matches(template, 'status-update')).toBe(true);
    expect(matches(template, '0123456789abcdef01234567')).toBe(false);
    const tracking = param('/api/tracking/track/{trackingNumber}', 'get', 'trackingNumber');
    expect(matches(tracking, 'SWX123456785')).toBe(true);
    expect(matches(tracking, 'swx123456785')).toBe(true);
    expect(matches(tracking, 'SWX12345678')).toBe(false);
    const parcel = param('/api/parcels/{id}/label.pdf', 'get', 'id');
    expect(matches(parcel, '0123456789abcdef01234567')).toBe(true);
    expect(matches(parcel, 'SWX123456785')).toBe(true);
    expect(matches(parcel, 'nope')).toBe(false);
    const event = param('/api/tracking/events/{id}', 'get', 'id');
    expect(matches(event, 'SWX123456785')).toBe(false);
  });

  it('states limits, formats and defaults as the schemas enforce them', () => {
    const query = (p: string) =>
      Object.fromEntries(
        ((doc.paths[p]!.get as unknown as Json).parameters as Json[])
          .filter((x) => x.in === 'query')
          .map((x) => [x.name, x.schema]),
      );
    for (const p of ['/api/parcels', '/api/notifications', '/api/receipts', '/api/audit']) {
      expect(query(p).page, p).toMatchObject({ type: 'integer', minimum: 1 });
      expect(query(p).limit, p).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    }
    expect(query('/api/parcels').limit).toMatchObject({ default: 100 });
    const body = (p: string, method = 'post') =>
      (
        (doc.paths[p]![method] as unknown as Json).requestBody as {
          content: { 'application/json': { schema: Json } };
        }
      ).content['application/json'].schema as { properties: Record<string, Json> };
    expect(body('/api/tracking/track').properties.trackingNumbers).toMatchObject({
      minItems: 1,
      maxItems: 30,
    });
    expect(body('/api/notifications').properties.recipient).toMatchObject({ format: 'email' });
    expect(body('/api/notifications').properties.trackingNumber).toMatchObject({
      pattern: expect.stringContaining('[A-Za-z]{3}'),
    });
    expect(body('/api/webhooks').properties.url).toMatchObject({ format: 'uri' });
    expect(JSON.stringify(body('/api/parcels').properties.recipient)).toContain('"format":"email"');
    expect(body('/api/tracking/{parcelId}/events').properties.timeZone).toMatchObject({
      description: expect.stringContaining('IANA'),
    });
    const error = (doc.components.schemas as Record<string, Json>).Error as {
      properties: Record<string, Json>;
    };
    expect(error.properties.code).toMatchObject({ enum: API_ERROR_CODES });
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('names PUBLIC_URL as its server, or else the origin it was asked at', async () => {
    expect((doc as unknown as Json).servers).toEqual([{ url: 'http://localhost' }]);
    const saved = env.PUBLIC_URL;
    env.PUBLIC_URL = 'https://courier.example.com';
    try {
      const res = await callRoute(openApiLoader, '/api/openapi.json');
      expect((await res.json()).servers).toEqual([{ url: 'https://courier.example.com' }]);
    } finally {
      env.PUBLIC_URL = saved;
    }
  });

  it('types every webhook payload and asks for no credential but the signature', () => {
    for (const [type, item] of Object.entries(doc.webhooks)) {
      const post = (item as { post: Json }).post as {
        security: unknown[];
        parameters: Json[];
        requestBody: { content: { 'application/json': { schema: Json } } };
      };
      expect(post.security, type).toEqual([]);
      expect(post.parameters.map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const { $ref } = post.requestBody.content['application/json'].schema as { $ref: string };
      const schema = (doc.components.schemas as Record<string, Json>)[$ref.split('/').pop()!]!;
      expect(schema).toMatchObject({
        properties: { type: { const: type }, data: { type: 'object' } },
      });
    }
  });
});

describe('the contract check', () => {
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  const post = (url: string, body: unknown) =>
    new Request(`http://localhost${url}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('flags an answer, a status, a path or an accepted request the document does not describe', async () => {
    const parcel = (await (
      await callRoute(parcelsAction, '/api/parcels', {
        method: 'POST',
        headers: auth,
        body: { recipient: { name: 'Contract', address: '1 Contract St' } },
      })
    ).json()) as Json;
    const body = { recipient: { name: 'Contract', address: '1 Contract St' } };
    expect(await contractViolations(post('/api/parcels', body), answer(201, parcel))).toEqual([]);
    // An answer missing a documented field.
    expect(
      await contractViolations(post('/api/parcels', body), answer(201, { parcel: { id: 'x' } })),
    ).toEqual([expect.stringContaining('201 answer')]);
    // A status the operation does not document.
    expect(await contractViolations(post('/api/parcels', body), answer(202, parcel))).toEqual([
      expect.stringContaining('status 202 is not documented'),
    ]);
    // A body the document refuses (a limit it states), accepted.
    expect(
      await contractViolations(
        post('/api/tracking/track', { trackingNumbers: [] }),
        answer(200, { results: [] }),
        { trackingNumbers: [] },
      ),
    ).toEqual([expect.stringContaining('to a request the document refuses')]);
    // A query parameter out of its bounds, accepted.
    expect(
      await contractViolations(
        new Request('http://localhost/api/parcels?limit=101'),
        answer(200, {
          parcels: [],
          pagination: { totalItems: 0, currentPage: 1, totalPages: 0, limit: 101 },
        }),
      ),
    ).toEqual([expect.stringContaining('query parameter limit')]);
    // A path the document does not have, answered.
    expect(
      await contractViolations(new Request('http://localhost/api/nowhere'), answer(200, {})),
    ).toEqual([expect.stringContaining('not documented')]);
    expect(
      await contractViolations(new Request('http://localhost/api/nowhere'), answer(404, {})),
    ).toEqual([]);
  });
});

describe('answers match the document', () => {
  it('for parcels, events, receipts, notifications, lists and errors', async () => {
    const created = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: auth,
      body: {
        recipient: { name: 'Doc Recipient', address: '1 Spec St', email: 'doc@example.com' },
      },
    });
    await expectDocumented('/api/parcels', 'post', created);
    const { parcel } = await created.json();
    const csv = (rows: string) => ({
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/csv' },
      body: `recipientName,recipientAddress\n${rows}`,
    });
    for (const [query, rows] of [
      ['?dryRun=true', 'Doc,1 St'],
      ['', 'Doc,1 St'],
      ['', ',no name'],
    ] as const)
      await expectDocumented(
        '/api/parcels/import',
        'post',
        await callRoute(importAction, `/api/parcels/import${query}`, csv(rows)),
      );
    await expectDocumented(
      '/api/parcels/import',
      'post',
      await callRoute(importAction, '/api/parcels/import', { ...csv(''), headers: auth }),
    );
    const params = { id: parcel.id, parcelId: parcel.id };

    const one = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: auth,
      params,
    });
    const etag = one.headers.get('etag')!;
    await expectDocumented('/api/parcels/{id}', 'get', one);
    await expectDocumented(
      '/api/parcels/{id}',
      'get',
      await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
        headers: { ...auth, 'If-None-Match': etag },
        params,
      }),
    );
    const label = await callRoute(labelLoader, `/api/parcels/${parcel.id}/label.pdf`, {
      headers: auth,
      params,
    });
    expect(label.status).toBe(200);
    const labelContent = (
      doc.paths['/api/parcels/{id}/label.pdf']!.get!.responses['200'] as {
        content: Record<string, unknown>;
      }
    ).content;
    expect(Object.keys(labelContent)).toEqual([label.headers.get('content-type')]);
    const unknownId = '0123456789abcdef01234567';
    await expectDocumented(
      '/api/parcels/{id}/label.pdf',
      'get',
      await callRoute(labelLoader, `/api/parcels/${unknownId}/label.pdf`, {
        headers: auth,
        params: { id: unknownId },
      }),
    );
    await expectDocumented(
      '/api/parcels/{id}/label.pdf',
      'get',
      await callRoute(labelLoader, `/api/parcels/${parcel.id}/label.pdf`, { params }),
    );
    await expectDocumented(
      '/api/tracking/{parcelId}/events',
      'post',
      await callRoute(eventsAction, `/api/tracking/${parcel.id}/events`, {
        method: 'POST',
        headers: auth,
        params,
        body: { status: 'Delivered', location: 'Door' },
      }),
    );
    await expectDocumented(
      '/api/tracking/{parcelId}/events',
      'get',
      await callRoute(eventsLoader, `/api/tracking/${parcel.id}/events`, { headers: auth, params }),
    );
    await expectDocumented(
      '/api/parcels/{id}',
      'put',
      await callRoute(parcelAction, `/api/parcels/${parcel.id}`, {
        method: 'PUT',
        headers: auth,
        params,
        body: { weight: -1 },
      }),
    );
    await expectDocumented(
      '/api/receipts/generate/{parcelId}',
      'post',
      await callRoute(generateAction, `/api/receipts/generate/${parcel.id}`, {
        method: 'POST',
        headers: auth,
        params,
      }),
    );
    await expectDocumented(
      '/api/notifications',
      'post',
      await callRoute(notificationsAction, '/api/notifications', {
        method: 'POST',
        headers: auth,
        body: { type: 'Custom', recipient: 'x', title: '', message: '', trackingNumber: 'no' },
      }),
    );
    // What a signed-in user reads with nothing but the URL.
    for (const [docPath, loader, url] of [
      ['/api/parcels', parcelsLoader, '/api/parcels'],
      ['/api/receipts', receiptsLoader, '/api/receipts'],
      ['/api/notifications', notificationsLoader, '/api/notifications?status=bogus'],
      ['/api/dashboard/stats', statsLoader, '/api/dashboard/stats'],
      ['/api/dashboard/recent-tracking', recentTrackingLoader, '/api/dashboard/recent-tracking'],
      ['/api/auth/me', meLoader, '/api/auth/me'],
    ] as const)
      await expectDocumented(docPath, 'get', await callRoute(loader, url, { headers: auth }));
    await expectDocumented('/api/auth/me', 'get', await callRoute(meLoader, '/api/auth/me'));
    await expectDocumented('/api/health', 'get', await callRoute(healthLoader, '/api/health'));

    const address = uniqueAddress();
    for (const number of [parcel.trackingNumber, 'ZZZ000000000', 'bad'])
      await expectDocumented(
        '/api/tracking/track/{trackingNumber}',
        'get',
        await callRoute(trackLoader, `/api/tracking/track/${number}`, {
          params: { trackingNumber: number },
          clientAddress: address,
        }),
      );
    await expectDocumented(
      '/api/tracking/track',
      'post',
      await callRoute(batchAction, '/api/tracking/track', {
        method: 'POST',
        body: { trackingNumbers: [parcel.trackingNumber, 'nope'] },
        clientAddress: address,
      }),
    );
    for (const [number, body] of [
      [parcel.trackingNumber, { email: 'follower@example.com' }],
      [parcel.trackingNumber, { email: 'nope' }],
      ['ZZZ000000000', { email: 'follower@example.com' }],
    ] as const)
      await expectDocumented(
        '/api/tracking/track/{trackingNumber}/subscriptions',
        'post',
        await callRoute(subscribeAction, `/api/tracking/track/${number}/subscriptions`, {
          method: 'POST',
          params: { trackingNumber: number },
          body,
          clientAddress: address,
        }),
      );
  });

  it('for API keys and webhooks', async () => {
    await expectDocumented(
      '/api/api-keys',
      'post',
      await callRoute(keysAction, '/api/api-keys', {
        method: 'POST',
        headers: auth,
        body: { name: 'CI', scopes: ['read'] },
      }),
    );
    await expectDocumented(
      '/api/api-keys',
      'get',
      await callRoute(keysLoader, '/api/api-keys', { headers: auth }),
    );
    const hook = await callRoute(webhooksAction, '/api/webhooks', {
      method: 'POST',
      headers: auth,
      body: { url: 'https://hooks.example.test/doc', events: ['parcel.created'] },
    });
    await expectDocumented('/api/webhooks', 'post', hook);
    const { webhook } = await hook.json();
    await expectDocumented(
      '/api/webhooks/{id}/deliveries',
      'get',
      await callRoute(deliveriesLoader, `/api/webhooks/${webhook.id}/deliveries`, {
        headers: auth,
        params: { id: webhook.id },
      }),
    );
    expect(checked).toBeGreaterThanOrEqual(20);
    // The checks can fail: a parcel without its fields is not a documented answer.
    const parcelCheck = validators.get('get /api/parcels/{id} 200')!;
    expect(parcelCheck({ parcel: { id: 'not-an-id', trackingNumber: 'x' } })).toBe(false);
  });
});

describe('/api/docs', () => {
  it('is a server-rendered reference of every operation, with nothing from another site', async () => {
    const res = await callRoute(docsLoader, '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    for (const op of OPENAPI_OPERATIONS)
      expect(html).toContain(`${op.method}</span> ${op.path.replace(/</g, '&lt;')}`);
    expect(html).not.toMatch(/<script|<link[^>]+href="https?:|src="https?:/i);
    expect(html).toContain('parcel.status_changed');
  });

  it('opens with a guide: getting started, verifying webhooks, retries, error codes, compatibility', async () => {
    const html = await (
      await callRoute(docsLoader, '/api/docs', { headers: { Host: 'docs.example.test' } })
    ).text();
    for (const heading of [
      'Getting started',
      'Verifying a webhook',
      'Retries',
      'Error codes',
      'Compatibility',
    ])
      expect(html).toMatch(new RegExp(`<h2 id="[\\w-]+">${heading}</h2>`));
    expect(html).toContain('curl -X POST http://localhost/api/parcels');
    expect(html).toContain('curl http://localhost/api/tracking/track/');
    expect(html).toContain('from &#x27;standardwebhooks&#x27;');
    expect(html).toContain('webhook.verify(req.body, req.headers)');
    const retries = /<ol class="retries">(.*?)<\/ol>/.exec(html)![1]!;
    expect(retries.match(/<li>/g)).toHaveLength(env.WEBHOOK_RETRY_DELAYS.length);
    expect(retries).toContain(`<li>${env.WEBHOOK_RETRY_DELAYS[0]} s</li>`);
    expect(html).toContain('password_change_required');
    expect(html).toContain('never renamed or removed');
  });
});
