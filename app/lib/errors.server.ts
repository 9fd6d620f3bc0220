/**
 * A change refused by the state of things rather than by its input: the last admin demoted, a
 * notification retried that has not failed, a delivery sent again while it is still queued. The
 * page that asked says the message; the API answers it with 409.
 */
export class ConflictError extends Error {}

/**
 * A change made against a version of a record that is no longer the stored one: someone else
 * changed it meanwhile (the API's If-Match, the edit form's version). The API answers 412.
 */
export class StaleRecordError extends Error {
  constructor(what = 'record') {
    super(`The ${what} was changed since that version: read it again`);
  }
}
