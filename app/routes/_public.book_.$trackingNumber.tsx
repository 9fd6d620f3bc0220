import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PageHero } from '~/components/public/page-hero';
import { publicPageMeta } from '~/components/public/page-meta';
import { queryLanguage } from '~/lib/i18n.server';
import { getParcelByTrackingNumber } from '~/models/parcel-reads.server';
import { normalizeTrackingNumber } from '~/schemas/constants';
import { formatMoney } from '~/utils/money';

/**
 * Where Stripe Checkout sends the payer back (`?payment=done` or `?payment=cancelled`): the
 * booking's tracking number and its payment as Stripe's signed events left it — never as the
 * address says. A payment not made yet can still be made from here until the booking expires.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const parcel = await getParcelByTrackingNumber(
    normalizeTrackingNumber(params.trackingNumber ?? ''),
  );
  if (!parcel?.payment) throw new Response('Not Found', { status: 404 });
  const language = queryLanguage(request);
  return json(
    {
      trackingNumber: parcel.trackingNumber,
      serviceType: parcel.serviceType,
      price: parcel.price,
      payment: parcel.payment.status,
      checkoutUrl: parcel.payment.checkoutUrl,
      cameBack: new URL(request.url).searchParams.get('payment'),
      trackHref: `/track?${new URLSearchParams({ number: parcel.trackingNumber, ...(language ? { lang: language } : {}) })}`,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

export const meta = publicPageMeta('book.status.title', 'book.metaDescription', { index: false });

export default function BookingStatus() {
  const booking = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation('public');
  const message =
    booking.payment === 'pending' && booking.cameBack === 'cancelled'
      ? 'cancelled'
      : booking.payment;
  return (
    <>
      <PageHero eyebrow={t('book.title')} title={t('book.status.heading')}>
        {t('book.status.trackingNumber', { number: booking.trackingNumber })}
      </PageHero>
      <section className="mx-auto max-w-3xl space-y-4 px-4 py-12">
        <p className="text-lg font-semibold text-gray-900" data-trackingnumber>
          {booking.trackingNumber}
          {booking.price ? ` · ${formatMoney(booking.price, i18n.language)}` : null}
        </p>
        <p role="status" className="card p-4 text-gray-800">
          {t(`book.status.${message}`)}
        </p>
        {booking.payment === 'pending' && booking.checkoutUrl ? (
          <p>
            <a href={booking.checkoutUrl} className="btn-accent">
              {t('book.status.payNow')}
            </a>
          </p>
        ) : null}
        <p>
          <a href={booking.trackHref} className="font-semibold text-brand-700 underline">
            {t('book.status.track')}
          </a>
        </p>
      </section>
    </>
  );
}
