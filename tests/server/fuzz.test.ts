import fs from 'node:fs';
import http from 'node:http';
import type { ServerBuild } from '@remix-run/node';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePage } from '../support/html';
import { startRealServer, type RealServer } from '../support/real-server';

/**
 * Hostile input against every route of the production build, through the real server: wrong
 * methods, malformed and deeply nested JSON, wrong types, huge and negative numbers, NUL bytes and
 * lone surrogates, invalid ids, 100,000-character strings, arrays for objects, missing and
 * duplicated fields — signed in and not. No answer may be a 5xx, and no stored document may change
 * (apart from the sign-in counters and sessions the requests legitimately make). Needs
 * `npm run build` first (`npm run test:all` builds before it runs the suites). FUZZ_TRACE=<file>
 * appends each request with its time in ms to that file.
 */

const LEGITIMATE_CHANGES = new Set(['rate_limits', 'sessions', 'apitokens']);

let server: RealServer;
let base = '';
let cookie = '';
let token = '';
let sent = 0;
const ids: Record<'parcel' | 'event' | 'receipt' | 'notification', string> = {
  parcel: '',
  event: '',
  receipt: '',
  notification: '',
};
let trackingNumber = '';

type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders };

function request(
  method: string,
  pathname: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  sent += 1;
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function snapshot(): Promise<Record<string, string>> {
  const db = mongoose.connection.db!;
  const out: Record<string, string> = {};
  for (const { name } of await db.listCollections().toArray()) {
    if (LEGITIMATE_CHANGES.has(name)) continue;
    const docs = await db.collection(name).find().sort({ _id: 1 }).toArray();
    out[name] = JSON.stringify(docs);
  }
  return out;
}

const deep = (levels: number, leaf: string) => '['.repeat(levels) + leaf + ']'.repeat(levels);
const LONG = 'x'.repeat(100_000);

/** JSON bodies an integrator should never send. */
const JSON_BODIES: string[] = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '12',
  deep(5_000, '1'),
  `{"a":${deep(2_000, '{}')}}`,
  JSON.stringify({ username: { $gt: '' }, password: { $ne: null } }),
  JSON.stringify({ weight: -1, cost: 1e308, priority: 'Urgent', status: ['x'] }),
  JSON.stringify({ weight: 'heavy', dimensions: 'big', sender: [], recipient: 7 }),
  JSON.stringify({ name: 'a\u0000b', email: '\ud800@example.com', message: LONG }),
  JSON.stringify({ trackingNumber: LONG, email: LONG, subject: LONG }),
  JSON.stringify({ destinations: Array.from({ length: 500 }, () => ({ city: {} })) }),
  JSON.stringify({ status: 'Delivered', timestamp: 'not a date', location: null }),
  JSON.stringify({ parcelId: '../../etc/passwd', type: 'status_update', amount: -5 }),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
  '{"status":"Delivered","status":12,"weight":1,"weight":"x"}',
];

/** Form bodies from a browser that was tampered with. */
const FORM_BODIES: string[] = [
  '',
  'intent=nope',
  'intent=delete&intent=retry&id=zzz',
  `username=${encodeURIComponent(LONG)}&password=${encodeURIComponent(LONG)}`,
  'email=%00%00&name=%ED%A0%80&message=%FF%FE',
  'weight=-5&cost=1e999&destinations[0].city=&destinations[99999].name=x',
  'status=Bogus&timestamp=yesterday&location=&parcelId=000000000000000000000000',
  'redirectTo=%2F%09%2Fevil.example&redirectTo=https%3A%2F%2Fevil.example',
  'a[b][c][d][e][f][g][h][i][j][k]=1&__proto__[x]=1',
  '%%%&&&===',
  // Names nested thousands deep, and more fields than any page has.
  `a${'[a]'.repeat(3_000)}=1`,
  `a${'.a'.repeat(3_000)}=1&username=x&password=y`,
  `destinations${'[0]'.repeat(3_000)}=1`,
  Array.from({ length: 5_000 }, (_, i) => `f${i}=x`).join('&'),
];

const BAD_IDS = ['zzz', '000000000000000000000000', '..%2F..', '%00', 'A'.repeat(300), '-1'];
const QUERIES = [
  '',
  `?ids${'[a]'.repeat(2_000)}=1&token${'.a'.repeat(2_000)}=x`,
  '?page=-1&limit=1000000',
  '?page=abc&limit=NaN&status=bogus&search=%00',
  `?search=${'('.repeat(50)}&sort=__proto__`,
  '?search[$ne]=x&status[]=a&status[]=b',
  `?number=${encodeURIComponent(LONG.slice(0, 5000))}`,
];

/** Every path of the build's route manifest, with each parameter filled several ways. */
function routePaths(build: ServerBuild): string[] {
  const full = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return '';
    const parent = full(route.parentId);
    if (!route.path) return parent;
    return parent ? `${parent}/${route.path}` : route.path;
  };
  const paths = new Set<string>();
  for (const id of Object.keys(build.routes)) {
    const pattern = `/${full(id)}`;
    const params = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const good = (name: string) =>
      name === 'trackingNumber'
        ? trackingNumber
        : name.startsWith('event')
          ? ids.event
          : name.startsWith('receipt')
            ? ids.receipt
            : name.startsWith('parcel')
              ? ids.parcel
              : ids.notification;
    const fill = (value: (name: string) => string) =>
      pattern.replace(/:(\w+)/g, (_, name: string) => value(name)).replace('*', 'no/such/page');
    paths.add(fill(good));
    if (params.length) for (const bad of BAD_IDS) paths.add(fill(() => bad));
    // One good parameter and one bad, where there are two.
    if (params.length > 1) paths.add(fill((name) => (name === params[0] ? good(name) : 'zzz')));
  }
  return [...paths];
}

/** Every route's path with valid ids, once each. */
function validRoutePaths(build: ServerBuild): string[] {
  return routePaths(build).filter((pathname) => !BAD_IDS.some((bad) => pathname.includes(bad)));
}

/**
 * What the POST forms of a page send, as [action, fields] for each of their submit buttons: the
 * fields inside the form and those tied to it by `form=`, each with the value the page shows (a
 * box as if ticked), and the button's own name and value; a button's formaction and formmethod win.
 */
function postedForms(
  document: Document,
  pageUrl: string,
): Array<[string, Array<[string, string]>]> {
  const found: Array<[string, Array<[string, string]>]> = [];
  for (const form of document.querySelectorAll('form')) {
    const id = form.getAttribute('id');
    const owned = [
      ...new Set([
        ...form.querySelectorAll('input, select, textarea, button'),
        ...(id ? document.querySelectorAll(`[form="${id}"]`) : []),
      ]),
    ];
    const isButton = (el: Element) =>
      el.tagName === 'BUTTON'
        ? (el.getAttribute('type') ?? 'submit').toLowerCase() === 'submit'
        : ['submit', 'image'].includes((el.getAttribute('type') ?? '').toLowerCase());
    const fields: Array<[string, string]> = [];
    for (const field of owned) {
      const name = field.getAttribute('name');
      const type = (field.getAttribute('type') ?? '').toLowerCase();
      if (
        !name ||
        field.tagName === 'BUTTON' ||
        ['submit', 'button', 'image', 'file', 'reset'].includes(type)
      )
        continue;
      const value =
        field.tagName === 'SELECT'
          ? ((
              field.querySelector('option[selected]') ?? field.querySelector('option')
            )?.getAttribute('value') ?? '')
          : field.tagName === 'TEXTAREA'
            ? (field.textContent ?? '')
            : (field.getAttribute('value') ?? 'x');
      fields.push([name, value]);
    }
    const buttons = owned.filter(isButton);
    for (const button of buttons.length ? buttons : [null]) {
      // React writes formMethod as it is spelled; HTML reads attribute names in any case.
      const method =
        button?.getAttribute('formmethod') ??
        button?.getAttribute('formMethod') ??
        form.getAttribute('method') ??
        'get';
      if (method.toLowerCase() !== 'post') continue;
      const target = new URL(
        button?.getAttribute('formaction') ?? form.getAttribute('action') ?? '',
        pageUrl,
      );
      const name = button?.getAttribute('name');
      found.push([
        `${target.pathname}${target.search}`,
        name ? [...fields, [name, button!.getAttribute('value') ?? '']] : fields,
      ]);
    }
  }
  return found;
}

/** Sends `tasks` four at a time. */
async function runAll(tasks: Array<() => Promise<void>>) {
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let task = tasks.shift(); task; task = tasks.shift()) await task();
    }),
  );
}

/**
 * Requests that would do what they say whatever the body — delete a real record, sign the
 * fuzzer out, generate a receipt — are left out for valid ids: they are not hostile input.
 */
function legitimate(method: string, pathname: string): boolean {
  if (pathname === '/logout' || pathname === '/api/auth/logout') return true;
  const validId = Object.values(ids).some((id) => pathname.includes(id));
  if (!validId) return false;
  return (
    method === 'DELETE' || pathname.endsWith('/delete') || pathname.includes('/receipts/generate/')
  );
}

beforeAll(async () => {
  server = await startRealServer({
    // Generous limits, so that every request reaches its route instead of a 429.
    env: {
      RATE_LIMIT_TRACKING_PER_MINUTE: '1000000',
      RATE_LIMIT_API_PER_MINUTE: '1000000',
      LOGIN_MAX_FAILURES: '1000',
    },
    admin: { username: 'fuzzer', password: 'fuzz-password-123' },
  });
  base = server.base;
  token = await server.apiToken();
  cookie = await server.signInCookie();
  expect(cookie).toMatch(/__session=/);

  // One of everything, so that valid ids reach the deeper code.
  const api = (pathname: string, json: unknown) =>
    server
      .request(pathname, { method: 'POST', headers: { authorization: `Bearer ${token}` }, json })
      .then((r) => r.json() as Promise<Record<string, { id: string; trackingNumber?: string }>>);
  const party = { name: 'A B', email: 'a@example.com', phone: '+1 555 0100', address: '1 Main St' };
  const { parcel } = await api('/api/parcels', {
    sender: party,
    recipient: party,
    weight: 1,
    dimensions: { length: 1, width: 1, height: 1 },
    serviceType: 'Standard',
    priority: 'Standard',
    destinations: [{ name: 'A B', address: '1 Main St', city: 'X', country: 'Y', postalCode: '1' }],
  });
  ids.parcel = parcel!.id;
  trackingNumber = parcel!.trackingNumber!;
  const { event } = await api(`/api/tracking/${ids.parcel}/events`, {
    status: 'In Transit',
    location: 'Hub',
    description: 'On the way',
  });
  ids.event = event!.id;
  const { receipt } = await api(`/api/receipts/generate/${ids.parcel}`, {});
  ids.receipt = receipt!.id;
  const { notification } = await api('/api/notifications', {
    type: 'Custom',
    recipient: 'a@example.com',
    title: 'Hello',
    message: 'A message',
    trackingNumber,
  });
  ids.notification = notification!.id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  console.log(`fuzz: ${sent} requests`);
});

describe('hostile input', () => {
  it('never answers 5xx and changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const check = (what: string, reply: Reply) => {
      if (reply.status >= 500)
        failures.push(`${reply.status} ${what.slice(0, 200)}: ${reply.body.slice(0, 200)}`);
    };
    const identities: Record<string, Record<string, string>> = {
      anonymous: {},
      cookie: { cookie, origin: base },
      token: { authorization: `Bearer ${token}` },
    };
    // Every request is queued here, then sent four at a time.
    const tasks: Array<() => Promise<void>> = [];
    const send = (
      method: string,
      target: string,
      what: string,
      init?: Parameters<typeof request>[2],
    ) =>
      tasks.push(async () => {
        const started = performance.now();
        // An answer the client cannot read (headers past Node's 16 KB, say) is a failure too.
        const reply = await request(method, target, init).catch((error: Error) => ({
          status: 599,
          body: error.message,
          headers: {},
        }));
        check(what, reply);
        if (process.env.FUZZ_TRACE)
          fs.appendFileSync(
            process.env.FUZZ_TRACE,
            `${(performance.now() - started).toFixed(0)} ${what.slice(0, 120)}\n`,
          );
      });
    const identityNames = Object.keys(identities);
    for (const pathname of routePaths(server.build)) {
      const api = pathname.startsWith('/api/');
      // A made-up id fails before the body is read: a few requests are enough there, from one
      // identity, dealt by the path so that each identity meets every kind of made-up id.
      const validPath = !BAD_IDS.some((bad) => pathname.includes(bad));
      const dealt =
        identityNames[
          [...pathname].reduce((sum, c) => sum + c.charCodeAt(0), 0) % identityNames.length
        ];
      for (const [who, auth] of Object.entries(identities)) {
        if (!validPath && who !== dealt) continue;
        const queries = !validPath ? [''] : who === 'anonymous' ? QUERIES : QUERIES.slice(0, 3);
        for (const query of queries) {
          const target = `${pathname}${query}`;
          send('GET', target, `GET ${target} (${who})`, { headers: auth });
        }
        const methods = validPath && who === 'anonymous' ? ['HEAD', 'OPTIONS', 'PATCH'] : ['PATCH'];
        for (const method of methods) {
          // PATCH /logout signs out as POST does.
          if (who !== 'anonymous' && legitimate(method, pathname)) continue;
          send(method, pathname, `${method} ${pathname} (${who})`, { headers: auth });
        }
        const bodies = api
          ? JSON_BODIES.map((body) => ({ type: 'application/json', body }))
          : FORM_BODIES.map((body) => ({ type: 'application/x-www-form-urlencoded', body }));
        // The other kind too, and a body that is not what it says.
        bodies.push({
          type: api ? 'application/x-www-form-urlencoded' : 'application/json',
          body: '{',
        });
        bodies.push({ type: 'multipart/form-data; boundary=x', body: '--x\r\nbroken' });
        // Every body where it is read: the API with a token, pages with the cookie, the public
        // forms and the sign-in without either. Elsewhere the credential check answers first.
        const reads =
          validPath &&
          ((api && who === 'token') ||
            (!api && who === 'cookie') ||
            (who === 'anonymous' && !pathname.startsWith('/dashboard') && !api) ||
            (who === 'anonymous' && /^\/api\/(auth|tracking\/track)/.test(pathname)));
        // Elsewhere four bodies, dealt out among the methods: each method meets one at least and
        // each body one method, since what answers first reads neither.
        const edge = [...bodies.slice(0, 2), ...bodies.slice(-2)];
        const writes = (api ? ['POST', 'PUT', 'DELETE'] : ['POST', 'DELETE']).filter(
          (method) => who === 'anonymous' || !legitimate(method, pathname),
        );
        for (const [m, method] of writes.entries()) {
          const tried = reads ? bodies : edge.filter((_, i) => i % writes.length === m);
          for (const { type, body } of tried) {
            send(method, pathname, `${method} ${pathname} (${who}, ${type}) ${body.slice(0, 60)}`, {
              headers: { ...auth, 'content-type': type },
              body,
            });
          }
        }
      }
    }
    await runAll(tasks);
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(sent).toBeGreaterThan(2_000);
  }, 600_000);

  it('answers malformed paths with 400 and unknown methods with 405 on every route, JSON under /api', async () => {
    const failures: string[] = [];
    const tasks: Array<() => Promise<void>> = [];
    const expectReply = (
      what: string,
      reply: Reply,
      status: number,
      api: boolean,
      code: string,
    ) => {
      const json = String(reply.headers['content-type']).startsWith('application/json');
      if (reply.status !== status || (api && (!json || JSON.parse(reply.body).code !== code)))
        failures.push(`${what}: ${reply.status} ${reply.body.slice(0, 120)}`);
    };
    for (const pathname of validRoutePaths(server.build)) {
      const api = pathname.startsWith('/api/');
      const segments = pathname.split('/');
      const malformed = [
        `${pathname}/%FF`,
        `${pathname}%`,
        `${segments.slice(0, -1).join('/')}/%E0%A4%A`,
        `/%C0%AF${pathname}`,
      ];
      for (const target of malformed)
        for (const method of ['GET', 'POST'])
          for (const headers of [{}, { cookie, origin: base }] as Array<Record<string, string>>) {
            tasks.push(async () => {
              const reply = await request(method, target, { headers });
              // A malformed first segment is no longer under /api: a plain 400 there.
              const underApi = target.toLowerCase().startsWith('/api/');
              expectReply(`${method} ${target}`, reply, 400, underApi, 'malformed_request');
            });
          }
      for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'M-SEARCH', 'PURGE', 'QUERY'])
        tasks.push(async () => {
          const reply = await request(method, pathname, {
            headers: { cookie, authorization: `Bearer ${token}` },
          });
          expectReply(`${method} ${pathname}`, reply, 405, api, 'method_not_allowed');
          if (!String(reply.headers.allow).includes('GET'))
            failures.push(`${method} ${pathname}: no Allow header`);
        });
      // A method Node's HTTP parser does not know is refused by Node itself, with a 400.
      tasks.push(async () => {
        const reply = await request('BREW', pathname, { headers: { cookie } });
        if (reply.status !== 400) failures.push(`BREW ${pathname}: ${reply.status}`);
      });
    }
    await runAll(tasks);
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers every form of every page with each field sent twice, or nested too deep, without a 5xx or a change', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const forms = new Map<string, Array<[string, string]>>();
    const { user } = JSON.parse(
      (await request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } }))
        .body,
    ) as { user: { id: string } };
    const pages = [
      ...validRoutePaths(server.build).map((pathname) => ({ pathname, headers: { cookie } })),
      { pathname: `/track?number=${trackingNumber}`, headers: {} },
      { pathname: '/management/access', headers: {} },
      { pathname: `/dashboard/users/${user.id}`, headers: { cookie } },
    ];
    for (const { pathname, headers } of pages) {
      if (pathname.startsWith('/api/') || legitimate('POST', pathname)) continue;
      const page = await request('GET', pathname, { headers });
      if (!String(page.headers['content-type']).startsWith('text/html')) continue;
      for (const [action, fields] of postedForms(parsePage(page.body), `${base}${pathname}`)) {
        // A form without a field of its own (a delete confirmation) is not hostile sent twice.
        if (!fields.length || legitimate('POST', new URL(action, base).pathname)) continue;
        forms.set(`${action} ${fields.map(([name]) => name).join(',')}`, fields);
      }
    }
    expect(forms.size).toBeGreaterThan(20);
    const tasks: Array<() => Promise<void>> = [];
    for (const [key, fields] of forms) {
      const action = key.slice(0, key.indexOf(' '));
      const twice = new URLSearchParams();
      for (const [name, value] of fields) {
        twice.append(name, value);
        twice.append(name, `${value}-again`);
      }
      const deepNames = new URLSearchParams(
        fields.map(([name, value]) => [`${name}${'[x]'.repeat(3_000)}`, value]),
      );
      for (const [what, body] of [
        ['twice', twice],
        ['deep', deepNames],
      ] as const)
        for (const headers of [{ cookie, origin: base }, { origin: base }] as Array<
          Record<string, string>
        >)
          tasks.push(async () => {
            const reply = await request('POST', action, {
              headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
              body: body.toString(),
            });
            if (reply.status >= 500)
              failures.push(
                `${reply.status} POST ${key} (${what}${headers.cookie ? ', signed in' : ''}): ${reply.body.slice(0, 200)}`,
              );
            // Refused: 400, or 413 where a form's many names made that deep are over the body limit.
            if (what === 'deep' && headers.cookie && ![400, 413].includes(reply.status))
              failures.push(`${reply.status} POST ${key} (deep): not refused`);
          });
    }
    await runAll(tasks);
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 300_000);

  it('refuses forms with field names nested thousands deep or thousands of fields with 400, before any sign-in', async () => {
    for (const body of FORM_BODIES.slice(-4)) {
      const reply = await request('POST', '/management/access', {
        headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      // The page says why, in its error message.
      expect(reply.status, body.slice(0, 40)).toBe(400);
      expect(reply.body).toMatch(/nested deeper than any page here sends|more than 1000 fields/);
    }
  });

  it('serves the next request on a keep-alive connection at once after an early 401 to a 200 KB body', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, pathname: string, body?: Buffer) =>
      new Promise<{ status: number; ms: number }>((resolve, reject) => {
        const started = performance.now();
        const req = http.request(
          `${base}${pathname}`,
          {
            method,
            agent,
            headers: body
              ? { 'content-type': 'application/json', 'content-length': body.length }
              : {},
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode!, ms: performance.now() - started }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const early = await send('POST', '/api/parcels', Buffer.alloc(200 * 1024, 'x'));
      expect(early.status).toBe(401);
      const next = await send('GET', '/api/health');
      expect(next.status).toBe(200);
      expect(next.ms).toBeLessThan(1_000);
    } finally {
      agent.destroy();
    }
  });

  it('marks private answers no-store whatever the case of the path', async () => {
    const signedIn = { cookie };
    const bearer = { authorization: `Bearer ${token}` };
    for (const [pathname, headers] of [
      ['/DASHBOARD/PARCELS', signedIn],
      ['/Dashboard/Receipts', signedIn],
      ['/dashboard/PARCELS', signedIn],
      ['/API/USERS', bearer],
      ['/Api/Parcels', bearer],
      ['/API/USERS', signedIn],
    ] as const) {
      const reply = await request('GET', pathname, { headers });
      expect(reply.status, pathname).toBe(200);
      expect(reply.headers['cache-control'], pathname).toBe('no-store');
    }
  });
});
