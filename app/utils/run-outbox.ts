import type { FormEvent } from 'react';
import { formJson, type OutboxEntry, type useOutbox } from './outbox';

/**
 * What only the courier's run keeps in the outbox besides scans: a stop's proof as a multipart
 * body, a pickup's outcome, and the submit handler that keeps a form's action when it must wait.
 * Apart from outbox.ts, so that the scan station's scripts do not carry them.
 */

export type Outbox = Pick<ReturnType<typeof useOutbox>, 'keep' | 'shouldQueue'>;

/**
 * A form's submit handler: when the action must wait its turn (offline, or others waiting), the
 * entry `entryOf` makes of the form and the button pressed is kept instead of the post;
 * otherwise the form posts as always.
 */
export function keepWhenQueued(
  outbox: Outbox,
  entryOf: (
    form: HTMLFormElement,
    submitter: HTMLElement | null,
  ) => Omit<OutboxEntry, 'id' | 'key'>,
) {
  return (event: FormEvent<HTMLFormElement>) => {
    if (!outbox.shouldQueue()) return;
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    void outbox.keep(entryOf(event.currentTarget, submitter));
  };
}

/** A form's fields as one multipart body, as the browser would post it, to keep. */
export async function multipartBody(form: FormData) {
  const encoded = new Response(form);
  return {
    multipart: await encoded.blob(),
    contentType: encoded.headers.get('Content-Type') ?? 'multipart/form-data',
  };
}

/**
 * A pickup stop's form as POST /api/pickups/:id/outcome's body: the outcome with its count, or
 * its reason and note; the pickup is in the address.
 */
export function pickupOutcomeBody(
  form: HTMLFormElement,
  submitter?: HTMLElement | null,
): Record<string, unknown> {
  const { pickupId: _pickupId, collectedCount, ...json } = formJson(form, submitter);
  return collectedCount === undefined ? json : { ...json, collectedCount: Number(collectedCount) };
}
