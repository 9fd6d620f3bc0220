import { useCallback, useEffect, useState } from 'react';

/**
 * The phone's outbox for a weak connection: a scan or a stop's outcome made offline (or while
 * others still wait) is kept in IndexedDB (through `idb`) with the Idempotency-Key made when it
 * was made, and posted to the API in the order made once the connection is back. A reload or a
 * closed tab keeps it; a send whose answer was lost is sent again with its key, which the API
 * answers with the first answer instead of recording it twice. Imported only by the scan station
 * and the courier's run, so no other page loads it.
 */
export type OutboxEntry = {
  /** The order made (IndexedDB's key generator). */
  id?: number;
  /** The request's Idempotency-Key, made with the action. */
  key: string;
  url: string;
  /**
   * A JSON body, or a multipart form's bytes with their content type (photos and signature in
   * them): encoded once, so that a retry is byte for byte the request its key was first sent with.
   */
  body: { json: Record<string, unknown> } | { multipart: Blob; contentType: string };
  /** The parcel's tracking number ('' for a pickup's outcome, which names its `pickup`). */
  trackingNumber: string;
  /** A pickup stop's outcome: the pickup, and whose it is as the lists say it. */
  pickup?: { id: string; accountName: string };
  /** What was done, as the waiting list says it ("Failed Delivery", "Delivered", "Collected"). */
  what: string;
};

/** What the last send answered, for the page to say. */
export type OutboxSent = Pick<OutboxEntry, 'trackingNumber' | 'pickup' | 'what'> & {
  refused: string | null;
};

export const OUTBOX_CHANGED = 'outbox-changed';
// A wait between tries while entries wait on a connection that says it is up.
const RETRY_MS = 30_000;

function loadStore() {
  return import('./outbox-store');
}

/**
 * The outbox as a page sees it: what waits, `keep` to queue an action (sent at once when the
 * connection is up), `shouldQueue` to tell whether an action must wait its turn (offline, or
 * others waiting), the last answers once sent, and whether it is `ready` to keep one.
 */
export function useOutbox({ onSent }: { onSent?: (sent: OutboxSent) => void } = {}) {
  const [waiting, setWaiting] = useState<OutboxEntry[]>([]);
  const [sent, setSent] = useState<OutboxSent[]>([]);
  // Whether the store is on the phone: from then on an action made offline can wait.
  const [ready, setReady] = useState(false);

  const send = useCallback(() => {
    if (!navigator.onLine) return;
    void loadStore().then(({ sendWaiting }) =>
      sendWaiting((one) => {
        setSent((list) => [one, ...list]);
        onSent?.(one);
      }),
    );
  }, [onSent]);

  useEffect(() => {
    let live = true;
    const refresh = () =>
      void loadStore()
        .then(({ waitingEntries }) => waitingEntries())
        .then((entries) => {
          if (!live) return;
          setWaiting(entries);
          setReady(true);
        });
    refresh();
    send();
    window.addEventListener(OUTBOX_CHANGED, refresh);
    window.addEventListener('online', send);
    const timer = window.setInterval(send, RETRY_MS);
    return () => {
      live = false;
      window.removeEventListener(OUTBOX_CHANGED, refresh);
      window.removeEventListener('online', send);
      window.clearInterval(timer);
    };
  }, [send]);

  const keep = useCallback(
    async (entry: Omit<OutboxEntry, 'id' | 'key'>) => {
      await (await loadStore()).addEntry(entry);
      send();
    },
    [send],
  );

  const shouldQueue = useCallback(() => !navigator.onLine || waiting.length > 0, [waiting]);

  return { waiting, sent, ready, keep, shouldQueue };
}

/** A form's fields as a JSON body: the page's `intent` and empty fields left out, a ticked box as true. */
export function formJson(form: HTMLFormElement, submitter?: HTMLElement | null) {
  const json: Record<string, unknown> = {};
  for (const [name, value] of new FormData(form, submitter ?? undefined)) {
    if (typeof value !== 'string' || value === '' || name === 'intent') continue;
    json[name] = value === 'on' ? true : value;
  }
  return json;
}

/** A scan form's fields as POST /api/scans's body, stamped with the time it was made. */
export function scanBody(
  form: HTMLFormElement,
  submitter?: HTMLElement | null,
): Record<string, unknown> {
  return { ...formJson(form, submitter), timestamp: new Date().toISOString() };
}
