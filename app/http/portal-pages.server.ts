import { getBookingBatch } from '~/models/booking-batch.server';
import { getParcelsByIds } from '~/models/parcel-reads.server';
import { scopeOf } from '~/lib/tenancy.server';
import { requireShipper } from './auth.server';
import { PortalParcelQuerySchema, type PortalParcelQuery } from '~/schemas/portal';
import { env } from '~/lib/env.server';
import { addDays } from '~/utils/delivery-headline';
import { zonedDateTimeToUtc } from '~/utils/time-zone';

/**
 * The portal's parcels list and its CSV read one query: the search, the status and the days
 * created from and to, which are the company's days (a parcel made at 23:30 there is that day's).
 * A query that does not parse filters nothing and says why (`problem`).
 */
export function portalParcelQuery(request: Request): {
  query: PortalParcelQuery;
  problem: string | null;
  filters: {
    status?: string;
    search?: string;
    created: { from?: Date; before?: Date };
  };
} {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = PortalParcelQuerySchema.safeParse(params);
  const query: PortalParcelQuery = parsed.success ? parsed.data : { page: 1, search: undefined };
  const zone = env.COMPANY_TIMEZONE;
  return {
    query,
    problem: parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid filter'),
    filters: {
      status: query.status,
      search: query.search,
      created: {
        ...(query.from ? { from: zonedDateTimeToUtc(query.from, '00:00', zone) } : {}),
        ...(query.to ? { before: zonedDateTimeToUtc(addDays(query.to, 1), '00:00', zone) } : {}),
      },
    },
  };
}

/** The filters a page of the list keeps, for its CSV link. */
export function portalFilterParams({ search, status, from, to }: PortalParcelQuery) {
  return new URLSearchParams(
    Object.entries({ search, status, from, to }).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    ),
  ).toString();
}

/**
 * A bulk booking of the signed-in shipper's account and its parcels, in the order booked; 404
 * for any other (another account's, the other mode's, or none).
 */
export async function bookedBatch(request: Request, batchId: string | undefined) {
  const user = await requireShipper(request);
  const scope = scopeOf({ user })!;
  const batch = await getBookingBatch(batchId ?? '', scope);
  if (!batch) throw new Response('Not found', { status: 404 });
  const parcels = (await getParcelsByIds(batch.parcelIds)).filter(
    (parcel) => parcel.accountId === scope.accountId && parcel.livemode === scope.livemode,
  );
  return { batch, parcels };
}
