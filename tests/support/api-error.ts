import type { ApiErrorCode } from '~/schemas/api-error-codes';

/** The API's error body: the message under `message` and again under `error`, with its code. */
export function apiError(message: string, code: ApiErrorCode, extra: Record<string, unknown> = {}) {
  return { error: message, message, code, ...extra };
}
