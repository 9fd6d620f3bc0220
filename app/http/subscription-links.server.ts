import { json, type LoaderFunctionArgs } from '@remix-run/node';
import type { SubscriptionLink } from '~/models/parcel-subscription.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';

/** What a subscription link's page shows: the subscription's state, or why the link fails. */
export type LinkPageData =
  | { state: 'invalid' | 'expired'; trackingNumber: null; email: null }
  | {
      state: Exclude<SubscriptionLink['state'], 'expired'>;
      trackingNumber: string;
      email: string;
    };

/** A genuine link to a subscription that has since expired (and was removed) is 'expired'. */
export function linkPageData(link: SubscriptionLink | 'gone' | null): LinkPageData {
  if (!link) return { state: 'invalid', trackingNumber: null, email: null };
  if (link === 'gone' || link.state === 'expired')
    return { state: 'expired', trackingNumber: null, email: null };
  return { state: link.state, trackingNumber: link.trackingNumber, email: link.email };
}

/**
 * The loader of a subscription link's page: the link `read` finds by the request's token, 404 for
 * a link that never was, never cached.
 */
export function linkPageLoader(
  read: (token: string | null) => Promise<SubscriptionLink | 'gone' | null>,
) {
  return async ({ request }: LoaderFunctionArgs) => {
    const data = linkPageData(await read(subscriptionLinkToken(request)));
    return json<LinkPageData>(data, {
      status: data.state === 'invalid' ? 404 : 200,
      headers: { 'Cache-Control': 'no-store' },
    });
  };
}
