import { redirect } from '@remix-run/node';
import { z } from 'zod';
import { flashStorage, isSecureRequest } from './cookies.server';

export const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof ToastSchema>;

const TOAST_KEY = 'toast';

export async function createToastHeaders(request: Request, toast: z.input<typeof ToastSchema>) {
  const session = await flashStorage.getSession();
  session.flash(TOAST_KEY, ToastSchema.parse(toast));
  const cookie = await flashStorage.commitSession(session, { secure: isSecureRequest(request) });
  return new Headers({ 'Set-Cookie': cookie });
}

/** Redirects and shows a toast on the next page. */
export async function redirectWithToast(
  request: Request,
  url: string,
  toast: z.input<typeof ToastSchema>,
  init?: ResponseInit,
) {
  const headers = new Headers(init?.headers);
  const toastHeaders = await createToastHeaders(request, toast);
  headers.append('Set-Cookie', toastHeaders.get('Set-Cookie')!);
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the toast; the returned headers clear it. */
export async function getToast(
  request: Request,
): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await flashStorage.getSession(request.headers.get('Cookie'));
  if (!session.has(TOAST_KEY)) return { toast: null, headers: null };
  const parsed = ToastSchema.safeParse(session.get(TOAST_KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: new Headers({
      'Set-Cookie': await flashStorage.commitSession(session, { secure: isSecureRequest(request) }),
    }),
  };
}

type ToastText = { title: string; description?: string };

/** What a toast says of a record deleted or changed by someone else meanwhile. */
export const GONE = 'It no longer exists.';

/**
 * The answer to a change of one record: back to `url` with the toast `done` says of the record, or
 * with the error toast `gone` when there was no such record to change.
 */
export function redirectWithOutcome<T>(
  request: Request,
  url: string,
  record: T | null | undefined,
  toasts: { gone: ToastText; done: ToastText | ((record: T) => ToastText) },
) {
  if (!record) return redirectWithToast(request, url, { type: 'error', ...toasts.gone });
  const done = typeof toasts.done === 'function' ? toasts.done(record) : toasts.done;
  return redirectWithToast(request, url, { type: 'success', ...done });
}
