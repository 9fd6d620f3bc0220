import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { afterEach, expect } from 'vitest';
import { contractViolations } from './contract';

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response> | Response;

const violations: string[] = [];

// A request or answer of the API that its OpenAPI document does not describe fails the test
// that made it.
afterEach(() => {
  const found = violations.splice(0);
  if (found.length) throw new Error(`The API broke its documented contract:\n${found.join('\n')}`);
});

/** Whether the OpenAPI document describes this address: the JSON API, but not its HTML guide. */
function underContract(url: URL) {
  return url.pathname.startsWith('/api/') && url.pathname !== '/api/docs';
}

/** Records where an /api request (its JSON body as sent) or its answer strays from the document. */
async function checkContract(request: Request, response: Response, sent: string | undefined) {
  if (!underContract(new URL(request.url))) return;
  let parsed: unknown;
  try {
    const json = sent !== undefined && request.headers.get('content-type')?.includes('json');
    parsed = json ? JSON.parse(sent) : undefined;
  } catch {
    parsed = undefined;
  }
  violations.push(...(await contractViolations(request, response, parsed)));
}

/**
 * Calls a route's loader or action as the server would, with a client address in the context:
 * as the holder of `token` (the API) or `cookie` (the pages) when one is given, POSTing `body`
 * (JSON unless it is a string or a form) or the fields of `form` unless `method` says otherwise.
 * Every /api request and its answer are checked against the OpenAPI document (see contract.ts).
 */
export async function callRoute(
  handler: unknown,
  url: string,
  options: {
    method?: string;
    params?: Record<string, string>;
    headers?: HeadersInit;
    token?: string;
    cookie?: string;
    body?: unknown;
    form?: Record<string, string>;
    clientAddress?: string;
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.cookie) headers.set('Cookie', options.cookie);
  let body: BodyInit | undefined = options.form && new URLSearchParams(options.form);
  if (options.body !== undefined) {
    if (
      typeof options.body === 'string' ||
      options.body instanceof URLSearchParams ||
      options.body instanceof FormData
    ) {
      body = options.body as BodyInit;
    } else {
      body = JSON.stringify(options.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
  }
  const request = new Request(new URL(url, 'http://localhost'), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  let response: Response;
  try {
    response = await (handler as Handler)({
      request,
      params: options.params ?? {},
      context: { clientAddress: options.clientAddress ?? '127.0.0.1' },
    } as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  await checkContract(request, response, typeof body === 'string' ? body : undefined);
  return response;
}

export function uniqueAddress(): string {
  return `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}

/**
 * A request to the JSON API as `user` (its bearer token; null or an empty token, none), with a
 * JSON body when one is given, or `rawBody` as it is, sent as `type` (JSON unless it says).
 */
export function apiRequest(
  url: string,
  user: { token: string } | null,
  init: { method?: string; body?: unknown; rawBody?: string; type?: string } = {},
) {
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return new Request(`http://localhost${url}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': init.type ?? 'application/json' }),
    },
    body,
  });
}

/** A request to a page as `user` (its session cookie): the form's POST when one is given. */
export function pageRequest(
  url: string,
  user: { cookie: string },
  form?: Record<string, string> | URLSearchParams,
) {
  return new Request(`http://localhost${url}`, {
    method: form ? 'POST' : 'GET',
    headers: {
      Cookie: user.cookie,
      ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
}

/** A loader's or action's answer to the request, thrown or returned. */
export async function answer(
  fn: (args: never) => Promise<Response> | Response,
  request: Request,
  params: Record<string, string> = {},
) {
  const sent = underContract(new URL(request.url)) ? await request.clone().text() : undefined;
  const response = await Promise.resolve(
    fn({ request, params, context: { clientAddress: '10.1.2.3' } } as never),
  ).catch((e: Response) => e);
  await checkContract(request, response, sent || undefined);
  return response;
}

/** The JSON body of `response`, which must answer `status`. */
export async function jsonOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  return response.json();
}

/** API and page requests as the user of a role among `users()`, read when a request is made. */
export function requestsAs<R extends string>(
  users: () => Record<R, { token: string; cookie: string }>,
) {
  return {
    api: (url: string, role: R, init?: { method?: string; body?: unknown }) =>
      apiRequest(url, users()[role], init),
    page: (url: string, role: R, form?: Record<string, string> | URLSearchParams) =>
      pageRequest(url, users()[role], form),
  };
}

/** The toast an answer leaves in its flash cookie for the next page, if any. */
export async function toastOf(response: Response) {
  // Loaded here, not at the top: a test file that sets its own environment before the app's
  // modules load (foundation.test.ts) imports this file first.
  const { flashStorage } = await import('~/lib/cookies.server');
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const flash = await flashStorage.getSession(cookies.join('; '));
  return flash.get('toast') as { type: string; title: string; description?: string } | undefined;
}

/**
 * Expects `response` to redirect (to `location`, when given) with a toast that has the fields of
 * `toast`.
 */
export async function expectToast(
  response: Response,
  toast: Partial<NonNullable<Awaited<ReturnType<typeof toastOf>>>>,
  location?: string,
) {
  expect(response.status).toBe(302);
  if (location !== undefined) expect(response.headers.get('Location')).toBe(location);
  expect(await toastOf(response)).toMatchObject(toast);
}
