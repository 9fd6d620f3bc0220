import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { publicPageMeta } from '~/components/public/page-meta';
import { LinkPage, linkPageData, type LinkPageData } from '~/components/tracking-public/link-page';
import {
  readUnsubscribeLink,
  unsubscribeParcelSubscription,
} from '~/models/parcel-subscription.server';

/**
 * The unsubscribe link of every e-mail to a parcel's subscribers, and its `List-Unsubscribe`
 * header. Opened in a browser it shows a button; a POST unsubscribes, whether from that button or
 * from a mail client's one-click unsubscribe (RFC 8058: a POST with `List-Unsubscribe=One-Click`,
 * without cookies). The token in the URL is the only credential, so the server lets other origins
 * post here (server/index.js). The answer to a POST is the page itself, not a redirect.
 */
function token(request: Request) {
  return new URL(request.url).searchParams.get('token');
}

export async function loader({ request }: LoaderFunctionArgs) {
  const data = linkPageData(await readUnsubscribeLink(token(request)));
  return json<LinkPageData>(data, {
    status: data.state === 'invalid' ? 404 : 200,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const link = await unsubscribeParcelSubscription(token(request));
  return json(
    { unsubscribed: Boolean(link) },
    { status: link ? 200 : 404, headers: { 'Cache-Control': 'no-store' } },
  );
}

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export const meta: MetaFunction = ({ matches }) =>
  publicPageMeta(matches, 'Unsubscribe', 'Stop e-mail updates for a parcel.', { index: false });

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
