import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response> | Response;

/** Calls a route's loader or action as the server would, with a client address in the context. */
export async function callRoute(
  handler: unknown,
  url: string,
  options: {
    method?: string;
    params?: Record<string, string>;
    headers?: HeadersInit;
    body?: unknown;
    clientAddress?: string;
  } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
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
    method: options.method ?? 'GET',
    headers,
    body,
  });
  try {
    return await (handler as Handler)({
      request,
      params: options.params ?? {},
      context: { clientAddress: options.clientAddress ?? '127.0.0.1' },
    } as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export function uniqueAddress(): string {
  return `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}
