import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { publicPageMeta } from '~/components/public/page-meta';
import { LinkPage, linkPageData, type LinkPageData } from '~/components/tracking-public/link-page';
import { confirmParcelSubscription, readConfirmLink } from '~/services/parcel-subscriptions.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';
import { safeRedirect } from '~/utils/safe-redirect';

/**
 * The link in the confirmation e-mail. Opening it only shows a button: mail scanners and link
 * previews fetch links, and must not confirm a subscription nobody asked for. The button posts
 * here, and the page then shows the subscription confirmed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const data = linkPageData(await readConfirmLink(subscriptionLinkToken(request)));
  return json<LinkPageData>(data, {
    status: data.state === 'invalid' ? 404 : 200,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const link = await confirmParcelSubscription(subscriptionLinkToken(request));
  if (!link) return json({ ok: false }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const url = new URL(request.url);
  return redirect(safeRedirect(url.pathname + url.search));
}

// Links carry a token: never kept by a cache, never indexed.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export const meta = publicPageMeta(
  'Confirm e-mail updates',
  'Confirm e-mail updates for a parcel.',
  {
    index: false,
  },
);

export default function ConfirmSubscriptionPage() {
  const data = useLoaderData<typeof loader>() as LinkPageData;
  return (
    <LinkPage title="E-mail updates for your parcel">
      {data.state === 'pending' ? (
        <>
          <p>
            Send an e-mail to <strong>{data.email}</strong> at every new scan of parcel{' '}
            <strong className="font-mono">{data.trackingNumber}</strong>, until it is delivered?
          </p>
          <form method="post" className="mt-6">
            <button type="submit" className="btn-primary">
              Confirm e-mail updates
            </button>
          </form>
        </>
      ) : data.state === 'confirmed' ? (
        <p role="status">
          Subscribed: <strong>{data.email}</strong> gets an e-mail at every new scan of parcel{' '}
          <strong className="font-mono">{data.trackingNumber}</strong> until it is delivered. Each
          e-mail has a link to unsubscribe.
        </p>
      ) : data.state === 'ended' ? (
        <p>
          Parcel <strong className="font-mono">{data.trackingNumber}</strong> has been delivered:
          there are no more updates to send.
        </p>
      ) : data.state === 'unsubscribed' ? (
        <p>
          This address unsubscribed from the updates for parcel{' '}
          <strong className="font-mono">{data.trackingNumber}</strong>. To get them again, subscribe
          again under its tracking result.
        </p>
      ) : data.state === 'invalid' ? (
        <p>This link is not valid. Check that it was copied whole from the e-mail.</p>
      ) : (
        <p>
          This link has expired. Subscribe again under the tracking result: a new link will be sent.
        </p>
      )}
    </LinkPage>
  );
}
