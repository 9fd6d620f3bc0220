import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
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

export const meta = publicPageMeta('links.confirmTitle', 'links.confirmDescription', {
  index: false,
});

const STRONG = [<strong key="email" />, <strong key="number" className="font-mono" />];

export default function ConfirmSubscriptionPage() {
  const data = useLoaderData<typeof loader>() as LinkPageData;
  const { t } = useTranslation('public');
  const values = { email: data.email ?? '', trackingNumber: data.trackingNumber ?? '' };
  return (
    <LinkPage title={t('links.confirmHeading')}>
      {data.state === 'pending' ? (
        <>
          <p>
            <Trans t={t} i18nKey="links.confirmQuestion" values={values} components={STRONG} />
          </p>
          <form method="post" className="mt-6">
            <button type="submit" className="btn-primary">
              {t('links.confirmButton')}
            </button>
          </form>
        </>
      ) : data.state === 'confirmed' ? (
        <p role="status">
          <Trans t={t} i18nKey="links.confirmed" values={values} components={STRONG} />
        </p>
      ) : data.state === 'ended' ? (
        <p>
          <Trans t={t} i18nKey="links.ended" values={values} components={STRONG.slice(1)} />
        </p>
      ) : data.state === 'unsubscribed' ? (
        <p>
          <Trans
            t={t}
            i18nKey="links.unsubscribedAlready"
            values={values}
            components={STRONG.slice(1)}
          />
        </p>
      ) : data.state === 'invalid' ? (
        <p>{t('links.invalid')}</p>
      ) : (
        <p>{t('links.expired')}</p>
      )}
    </LinkPage>
  );
}
