import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import {
  LinkPage,
  LinkPageQuestion,
  linkPageHeaders,
  linkPageMeta,
  useLinkPage,
} from '~/components/tracking-public/link-page';
import { confirmParcelSubscription, readConfirmLink } from '~/services/parcel-subscriptions.server';
import { subscriptionLinkToken } from '~/schemas/public-forms';
import { safeRedirect } from '~/utils/safe-redirect';
import { linkPageLoader } from '~/http/subscription-links.server';

/**
 * The link in the confirmation e-mail. Opening it only shows a button: mail scanners and link
 * previews fetch links, and must not confirm a subscription nobody asked for. The button posts
 * here, and the page then shows the subscription confirmed.
 */
// A function, so that the browser's bundle, which leaves the server's code out, calls nothing.
export const loader = (args: LoaderFunctionArgs) => linkPageLoader(readConfirmLink)(args);

export async function action({ request }: ActionFunctionArgs) {
  const link = await confirmParcelSubscription(subscriptionLinkToken(request));
  if (!link) return json({ ok: false }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const url = new URL(request.url);
  return redirect(safeRedirect(url.pathname + url.search));
}

export { linkPageHeaders as headers };

export const meta = linkPageMeta('links.confirmTitle', 'links.confirmDescription');

export default function ConfirmSubscriptionPage() {
  const { data, t, say } = useLinkPage();
  return (
    <LinkPage title={t('links.confirmHeading')}>
      {data.state === 'pending' ? (
        <LinkPageQuestion
          question={say('links.confirmQuestion')}
          button={t('links.confirmButton')}
        />
      ) : data.state === 'confirmed' ? (
        <p role="status">{say('links.confirmed')}</p>
      ) : data.state === 'ended' ? (
        <p>{say('links.ended', true)}</p>
      ) : data.state === 'unsubscribed' ? (
        <p>{say('links.unsubscribedAlready', true)}</p>
      ) : data.state === 'invalid' ? (
        <p>{t('links.invalid')}</p>
      ) : (
        <p>{t('links.expired')}</p>
      )}
    </LinkPage>
  );
}
