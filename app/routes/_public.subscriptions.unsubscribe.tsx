import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  LinkPage,
  LinkPageQuestion,
  linkPageHeaders,
  linkPageMeta,
  useLinkPage,
} from '~/components/tracking-public/link-page';
import {
  readUnsubscribeLink,
  unsubscribeParcelSubscription,
} from '~/services/parcel-subscriptions.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';
import { linkPageLoader } from '~/http/subscription-links.server';

/**
 * The unsubscribe link in the body of every e-mail to a parcel's subscribers: it shows a button
 * (a link opened by a mail scanner unsubscribes nobody), which posts here; the answer is the page
 * itself. Mail providers' one-click unsubscribe posts to subscriptions.one-click.
 */
// A function, so that the browser's bundle, which leaves the server's code out, calls nothing.
export const loader = (args: LoaderFunctionArgs) => linkPageLoader(readUnsubscribeLink)(args);

export async function action({ request }: ActionFunctionArgs) {
  const link = await unsubscribeParcelSubscription(subscriptionLinkToken(request));
  return json(
    { unsubscribed: Boolean(link) },
    { status: link ? 200 : 404, headers: { 'Cache-Control': 'no-store' } },
  );
}

export { linkPageHeaders as headers };

export const meta = linkPageMeta('links.unsubscribeTitle', 'links.unsubscribeDescription');

export default function UnsubscribePage() {
  const { data, t, say } = useLinkPage();
  return (
    <LinkPage title={t('links.unsubscribeHeading')}>
      {data.state === 'pending' || data.state === 'confirmed' || data.state === 'ended' ? (
        <LinkPageQuestion
          question={say('links.unsubscribeQuestion')}
          button={t('links.unsubscribeButton')}
        >
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        </LinkPageQuestion>
      ) : data.state === 'invalid' ? (
        <p>{t('links.invalid')}</p>
      ) : (
        <p role="status">
          {data.trackingNumber ? say('links.unsubscribedFrom', true) : t('links.unsubscribed')}
        </p>
      )}
    </LinkPage>
  );
}
