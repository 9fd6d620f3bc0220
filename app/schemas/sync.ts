import { MAX_PAGE_SIZE } from './constants';
import { limitField, pageField } from './paging';
import { z } from './zod';

/**
 * How a client follows the changes of a list (parcels, a parcel's events, notifications,
 * receipts). `updatedSince` starts a sync (and, with page numbers, lists what changed since an
 * instant, for people); every answer it starts carries `nextCursor`, an opaque position in the
 * order changes were made, and `cursor` continues from one: the next `limit` changes, deletions
 * included, none missed and none repeated, whatever is written meanwhile (app/lib/changes.server.ts
 * says how). `hasMore` says whether the next page already holds more.
 */

/** The lists a sync follows: a cursor of one is refused by another. */
export const SYNC_LISTS = ['parcels', 'events', 'notifications', 'receipts'] as const;
export type SyncList = (typeof SYNC_LISTS)[number];

/** A position in the order of changes: after change `seq`'s record `id`. */
export type SyncCursor = { list: SyncList; seq: number; id: string };

const toBase64Url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

export function encodeSyncCursor({ list, seq, id }: SyncCursor): string {
  return toBase64Url(JSON.stringify({ l: list, s: seq, i: id }));
}

const CursorShape = z.object({
  l: z.enum(SYNC_LISTS),
  s: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  i: z.string().regex(/^[0-9a-f]{24}$/),
});

/** The position a cursor names, or null when it is not one this API gave. */
export function decodeSyncCursor(text: string): SyncCursor | null {
  try {
    const parsed = CursorShape.safeParse(JSON.parse(fromBase64Url(text)));
    return parsed.success ? { list: parsed.data.l, seq: parsed.data.s, id: parsed.data.i } : null;
  } catch {
    return null;
  }
}

const CURSOR_MESSAGE = 'cursor must be the nextCursor of an earlier answer of this list';

/** `cursor` on the list `list`: a nextCursor that list gave. */
export const syncCursor = (list: SyncList) =>
  z
    .string({ error: CURSOR_MESSAGE })
    .max(200, CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
    .transform((text, ctx) => {
      const cursor = decodeSyncCursor(text);
      if (cursor?.list === list) return cursor;
      ctx.addIssue({ code: 'custom', message: CURSOR_MESSAGE });
      return z.NEVER;
    })
    .optional()
    .meta({
      description:
        'Continues a sync: the nextCursor of the previous answer. The next `limit` changes (records and deletions) in the order they were made; `page` and `updatedSince` are then not used',
    });

/**
 * `updatedSince` on the API's lists: an ISO 8601 date-time with its zone. A list given it holds
 * only the records changed at or after that instant, deletions included, in the order the
 * changes were made (ties by id), and starts a sync: its answer carries `nextCursor`.
 */
export const updatedSince = z.iso
  .datetime({
    offset: true,
    error: 'updatedSince must be an ISO 8601 date and time, e.g. 2024-12-15T09:30:00Z',
  })
  .transform((value) => new Date(value))
  .optional()
  .describe(
    'Starts a sync: only records changed (or deleted) at or after this instant (ISO 8601), in the order the changes were made, with `nextCursor` to continue from',
  );

/** A parcel's events: newest first, a page at a time (all of them, up to 100, by default). */
export const EventListQuerySchema = z.object({
  page: pageField(),
  limit: limitField(MAX_PAGE_SIZE),
  updatedSince,
  cursor: syncCursor('events'),
});
