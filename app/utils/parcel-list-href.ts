/** The query parameters of the parcel list that a bulk action carries back to it. */
const LIST_PARAMS = ['search', 'status', 'sort', 'order', 'page', 'limit', 'view'];

/**
 * The parcel list at the query `back` (the list's query string, carried through a bulk action so
 * the user returns to the same filters and page). Only the list's own parameters are kept, so
 * whatever `back` holds, this is an address of the list.
 */
export function parcelListHref(back: string | null | undefined): string {
  const given = new URLSearchParams(typeof back === 'string' ? back : '');
  const params = new URLSearchParams();
  for (const name of LIST_PARAMS) {
    const value = given.get(name);
    if (value) params.set(name, value);
  }
  const query = params.toString();
  return `/dashboard/parcels${query ? `?${query}` : ''}`;
}
