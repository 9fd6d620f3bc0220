import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
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

export const meta = publicPageMeta('links.unsubscribeTitle', 'links.unsubscribeDescription', {
  index: false,
});

const STRONG = [<strong key="email" />, <strong key="number" className="font-mono" />];

export default function UnsubscribePage() {
  const data = useLoaderData<typeof loader>() as LinkPageData;
  const { t } = useTranslation('public');
  const values = { email: data.email ?? '', trackingNumber: data.trackingNumber ?? '' };
  return (
    <LinkPage title={t('links.unsubscribeHeading')}>
      {data.state === 'pending' || data.state === 'confirmed' || data.state === 'ended' ? (
        <>
          <p>
            <Trans t={t} i18nKey="links.unsubscribeQuestion" values={values} components={STRONG} />
          </p>
          <form method="post" className="mt-6">
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit" className="btn-primary">
              {t('links.unsubscribeButton')}
            </button>
          </form>
        </>
      ) : data.state === 'invalid' ? (
        <p>{t('links.invalid')}</p>
      ) : (
        <p role="status">
          {data.trackingNumber ? (
            <Trans
              t={t}
              i18nKey="links.unsubscribedFrom"
              values={values}
              components={STRONG.slice(1)}
            />
          ) : (
            t('links.unsubscribed')
          )}
        </p>
      )}
    </LinkPage>
  );
}
