import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { unsubscribeParcelSubscription } from '~/services/parcel-subscriptions.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';

/**
 * The address in the `List-Unsubscribe` header of every e-mail to a parcel's subscribers: a mail
 * provider POSTs `List-Unsubscribe=One-Click` here (RFC 8058), from its own servers or from
 * its web page, without cookies. The token in the URL is the only credential, so the server lets
 * other origins post here (server/index.js), and this is a resource route, which Remix's check of
 * a page's action against `Origin` does not apply to. A browser that opens it gets the
 * unsubscribe page, with its button.
 */
const NO_STORE = { 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' };

export async function loader({ request }: LoaderFunctionArgs) {
  // Only the link's token goes along: the rest of a query is nobody's to pass on.
  const token = subscriptionLinkToken(request);
  return redirect(`/subscriptions/unsubscribe${token ? `?${new URLSearchParams({ token })}` : ''}`);
}

export async function action({ request }: ActionFunctionArgs) {
  const link = await unsubscribeParcelSubscription(subscriptionLinkToken(request));
  if (!link)
    return new Response('This unsubscribe link is not valid.', { status: 404, headers: NO_STORE });
  return new Response(
    'Unsubscribed: no more e-mails will be sent to this address about this parcel.',
    {
      status: 200,
      headers: NO_STORE,
    },
  );
}
