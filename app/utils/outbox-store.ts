import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { OUTBOX_CHANGED, type OutboxEntry, type OutboxSent } from './outbox';

/**
 * The outbox's store and sender (see outbox.ts): IndexedDB through `idb`, and the posts in the
 * order made. Loaded by useOutbox once the page is interactive, so a page's first scripts stay
 * light, and before the connection is needed.
 */
interface OutboxDb extends DBSchema {
  outbox: { key: number; value: OutboxEntry };
}

let database: Promise<IDBPDatabase<OutboxDb>> | undefined;

function outboxDb() {
  database ??= openDB<OutboxDb>('swiftship-outbox', 1, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
    },
  });
  return database;
}

export async function waitingEntries() {
  return (await outboxDb()).getAll('outbox');
}

function announce() {
  window.dispatchEvent(new Event(OUTBOX_CHANGED));
}

function requestOf(entry: OutboxEntry): RequestInit {
  const headers: Record<string, string> = {
    'Idempotency-Key': entry.key,
    Accept: 'application/json',
  };
  if ('json' in entry.body) {
    headers['Content-Type'] = 'application/json';
    return { method: 'POST', headers, body: JSON.stringify(entry.body.json) };
  }
  headers['Content-Type'] = entry.body.contentType;
  return { method: 'POST', headers, body: entry.body.multipart };
}

/** Answers after which the entry must wait and be sent again with its key. */
function mustRetry(response: Response, code: unknown) {
  return (
    response.status >= 500 ||
    response.status === 401 ||
    response.status === 429 ||
    code === 'idempotency_key_in_progress'
  );
}

let sending: Promise<void> | null = null;

/** Sends the waiting entries in order, stopping at the first that cannot go yet. */
export function sendWaiting(onSent: (sent: OutboxSent) => void): Promise<void> {
  sending ??= (async () => {
    try {
      const db = await outboxDb();
      for (;;) {
        const cursor = await db.transaction('outbox').store.openCursor();
        const entry = cursor?.value;
        if (!entry) return;
        let response: Response;
        try {
          response = await fetch(entry.url, requestOf(entry));
        } catch {
          return;
        }
        const answer = (await response.json().catch(() => null)) as {
          code?: unknown;
          message?: unknown;
        } | null;
        if (mustRetry(response, answer?.code)) return;
        await db.delete('outbox', entry.id!);
        announce();
        const refused = response.ok || typeof answer?.message !== 'string' ? null : answer.message;
        const { trackingNumber, pickup, what } = entry;
        onSent({ trackingNumber, pickup, what, refused });
      }
    } finally {
      sending = null;
    }
  })();
  return sending;
}

/** Keeps an action with its new Idempotency-Key, after those waiting. */
export async function addEntry(entry: Omit<OutboxEntry, 'id' | 'key'>) {
  await (await outboxDb()).add('outbox', { ...entry, key: crypto.randomUUID() });
  announce();
}
