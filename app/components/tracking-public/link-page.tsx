import type { ReactNode } from 'react';
import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { keepLanguage } from '~/utils/page-language';
import type { SubscriptionLink } from '~/models/parcel-subscription.server';

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

export function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('public');
  const { search } = useLocation();
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold">{title}</h1>
      <div className="card mt-6 p-6 text-gray-800">{children}</div>
      <p className="mt-6">
        <a
          href={keepLanguage('/track', search)}
          className="font-semibold text-brand-700 hover:underline"
        >
          {t('links.trackParcel')}
        </a>
      </p>
    </div>
  );
}
