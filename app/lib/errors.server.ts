import type { ApiErrorCode } from '~/schemas/api-error-codes';

/**
 * The failures services speak of, in the domain's words: what was refused and why, never an HTTP
 * status. One place on the routes' side (`statusOf` in app/http/api.server.ts) turns each kind
 * into its status, and the API's error body carries the `code`, `details` and `extra` given here.
 */
export type DomainErrorOptions = {
  /** The stable name a client acts on, when not the kind's own (see api-error-codes.ts). */
  code?: ApiErrorCode;
  /** Per-field messages, keyed by the field's dotted path. */
  details?: Record<string, string[]>;
  /** What the answer says besides (the number looked up, the stop that needs a proof). */
  extra?: Record<string, unknown>;
};

export class DomainError extends Error {
  constructor(
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
  }
}

/** Input the domain refuses: an unknown depot, a stop the parcel does not have. */
export class ValidationError extends DomainError {
  constructor(
    details: Record<string, string[]>,
    message = 'Validation failed',
    code?: ApiErrorCode,
  ) {
    super(message, { details, code });
  }
}

/** The record a change or read names is not there. */
export class NotFoundError extends DomainError {}

/**
 * A change refused by the state of things rather than by its input: the last admin demoted, a
 * notification retried that has not failed, a delivery sent again while it is still queued. The
 * page that asked says the message; the API answers it with 409.
 */
export class ConflictError extends DomainError {}

/**
 * A change made against a version of a record that is no longer the stored one: someone else
 * changed it meanwhile (the API's If-Match, the edit form's version). The API answers 412.
 */
export class StaleRecordError extends DomainError {
  constructor(what = 'record') {
    super(`The ${what} was changed since that version: read it again`);
  }
}

/** A file that is not of a kind the domain reads (an upload that does not decode as an image). */
export class UnsupportedFileError extends DomainError {}

/** A file larger than the domain takes (an image too large to decode). */
export class FileTooLargeError extends DomainError {}

/** An outside service the change needs did not answer (the card payment provider): try again. */
export class UnavailableError extends DomainError {}
