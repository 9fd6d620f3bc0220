import type { Submission } from '@conform-to/react';
import { redirectWithOutcome } from '~/lib/flash.server';
import { saveFailed } from '~/lib/form-reply.server';
import { getParcelOption, listParcelOptions } from '~/models/parcel-reads.server';
import { parseWithZod } from '@conform-to/zod/v4';
import {
  defaultSortOrder,
  PARCEL_SEARCH_MAX_LENGTH,
  PARCEL_TABLE_PAGE_SIZE,
  PARCEL_TABLE_PAGE_SIZES,
  type SortOrder,
} from '~/schemas/constants';
import {
  ParcelBulkStatusFormSchema,
  ParcelListQuerySchema,
  type ParcelListQuery,
} from '~/schemas/parcel';
import type { z } from '~/schemas/zod';

/** The answer when saving a parcel failed on our side: the form says so and the spec's toast shows. */
/** What the edit form says when someone else's change to the parcel came first. */
export const CHANGED_MEANWHILE =
  'This parcel was changed by someone else while you were editing. The form now shows it as it is: make your changes again and save.';

export function parcelSaveFailed(
  request: Request,
  verb: 'create' | 'update',
  submission: Submission<unknown>,
  error: unknown,
) {
  const message = `Failed to ${verb} parcel. Please try again.`;
  return saveFailed(request, submission, error, {
    formError: message,
    toast: {
      title: verb === 'create' ? 'Error creating parcel' : 'Error updating parcel',
      description: message,
    },
  });
}

/**
 * What a parcel picker dialog offers: up to `limit` parcels found by the URL's `parcelSearch`,
 * whether there are more, and the parcel its `parcelId` has chosen, kept in the list even when it
 * is older or does not match the search.
 */
export async function loadParcelChoices(params: URLSearchParams, limit: number) {
  const search = (params.get('parcelSearch') ?? '').trim().slice(0, PARCEL_SEARCH_MAX_LENGTH);
  const parcelId = params.get('parcelId') ?? '';
  const [found, chosen] = await Promise.all([
    // One more than is shown tells whether there are others to search for.
    listParcelOptions({ limit: limit + 1, search }),
    parcelId ? getParcelOption(parcelId) : null,
  ]);
  const parcels = found.slice(0, limit);
  const picker = { search, shown: parcels.length, truncated: found.length > limit };
  if (chosen && !parcels.some((p) => p.id === chosen.id)) parcels.push(chosen);
  return { parcels, chosen, picker };
}

/** The parcel list that a parcel's dialog was opened over, keeping its search. */
export function parcelListUrl(request: Request) {
  return `/dashboard/parcels${new URL(request.url).search}`;
}

const PARCEL_CHANGES = {
  create: { doing: 'creating', done: 'created' },
  update: { doing: 'updating', done: 'updated' },
  delete: { doing: 'deleting', done: 'deleted' },
} as const;

/**
 * Back to the parcel list after a parcel was created, updated or deleted, with the spec's toast
 * naming its tracking number, or the error toast when the parcel was gone meanwhile.
 */
export function redirectAfterParcelChange(
  request: Request,
  change: keyof typeof PARCEL_CHANGES,
  parcel: { trackingNumber: string } | null | undefined,
) {
  const { doing, done } = PARCEL_CHANGES[change];
  return redirectWithOutcome(request, parcelListUrl(request), parcel, {
    gone: { title: `Error ${doing} parcel`, description: 'The parcel no longer exists.' },
    done: ({ trackingNumber }) => ({
      title: `Parcel ${done} successfully`,
      description: `Tracking number: ${trackingNumber}`,
    }),
  });
}

/** The staff parcel table's query: the list's, with the order and the view. */
export type TableQuery = ParcelListQuery & { order: SortOrder; view: 'table' | 'cards' };

/**
 * The list's query, read leniently: a bad value in the address bar falls back to its default
 * (page 1, 50 rows, newest first) rather than an error. Rows per page are 25, 50 or 100.
 */
export function readParcelTableQuery(url: URL): TableQuery {
  const params = url.searchParams;
  const pick = <T>(schema: z.ZodType<T>, value: string | null, fallback: T): T => {
    if (value === null) return fallback;
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : fallback;
  };
  const fields = ParcelListQuerySchema.shape;
  const sort = pick(fields.sort, params.get('sort'), 'createdAt');
  const limit = Number(params.get('limit'));
  return {
    page: pick(fields.page, params.get('page'), 1),
    limit: (PARCEL_TABLE_PAGE_SIZES as readonly number[]).includes(limit)
      ? limit
      : PARCEL_TABLE_PAGE_SIZE,
    status: pick(fields.status, params.get('status'), undefined),
    search: pick(
      fields.search,
      (params.get('search') ?? '').slice(0, PARCEL_SEARCH_MAX_LENGTH),
      undefined,
    ),
    sort,
    order: pick(fields.order, params.get('order'), undefined) ?? defaultSortOrder(sort),
    view: params.get('view') === 'cards' ? 'cards' : 'table',
    // One shipper account's parcels (or `none`, the company's own); the accounts' test parcels.
    account: pick(fields.account, params.get('account'), undefined),
    mode: pick(fields.mode, params.get('mode'), undefined),
  };
}

/**
 * The parcel table's bulk status change as its form posts it. The table's page reads its query
 * and its form here, so that it does not load zod in the browser for them.
 */
export function parseBulkStatusForm(formData: FormData) {
  return parseWithZod(formData, { schema: ParcelBulkStatusFormSchema });
}
