import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { publicPageMeta } from '~/components/public/page-meta';
import { LinkPage, linkPageData, type LinkPageData } from '~/components/tracking-public/link-page';
import {
  readUnsubscribeLink,
  unsubscribeParcelSubscription,
} from '~/services/parcel-subscriptions.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';

/**
 * The unsubscribe link in the body of every e-mail to a parcel's subscribers: it shows a button
 * (a link opened by a mail scanner unsubscribes nobody), which posts here; the answer is the page
 * itself. Mail providers' one-click unsubscribe posts to subscriptions.one-click.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const data = linkPageData(await readUnsubscribeLink(subscriptionLinkToken(request)));
  return json<LinkPageData>(data, {
    status: data.state === 'invalid' ? 404 : 200,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const link = await unsubscribeParcelSubscription(subscriptionLinkToken(request));
  return json(
    { unsubscribed: Boolean(link) },
    { status: link ? 200 : 404, headers: { 'Cache-Control': 'no-store' } },
  );
}

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export const meta = publicPageMeta('Unsubscribe', 'Stop e-mail updates for a parcel.', {
  index: false,
});

export default function UnsubscribePage() {
  const data = useLoaderData<typeof loader>() as LinkPageData;
  return (
    <LinkPage title="Unsubscribe from parcel updates">
      {data.state === 'pending' || data.state === 'confirmed' || data.state === 'ended' ? (
        <>
          <p>
            Stop the e-mails to <strong>{data.email}</strong> about parcel{' '}
            <strong className="font-mono">{data.trackingNumber}</strong>?
          </p>
          <form method="post" className="mt-6">
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit" className="btn-primary">
              Unsubscribe
            </button>
          </form>
        </>
      ) : data.state === 'invalid' ? (
        <p>This link is not valid. Check that it was copied whole from the e-mail.</p>
      ) : (
        <p role="status">
          You are unsubscribed
          {data.trackingNumber ? (
            <>
              {' '}
              from the updates for parcel{' '}
              <strong className="font-mono">{data.trackingNumber}</strong>
            </>
          ) : null}
          : no more e-mails about it will be sent to this address.
        </p>
      )}
    </LinkPage>
  );
}
