/**
 * A change refused by the state of things rather than by its input: the last admin demoted, a
 * notification retried that has not failed, a delivery sent again while it is still queued. The
 * page that asked says the message; the API answers it with 409.
 */
export class ConflictError extends Error {}
