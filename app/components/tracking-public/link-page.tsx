import type { HeadersFunction } from '@remix-run/node';
import type { ReactNode } from 'react';
import { useLoaderData, useLocation } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
import { publicPageMeta } from '~/components/public/page-meta';
import { keepLanguage } from '~/utils/page-language';
import type { LinkPageData } from '~/http/subscription-links.server';

// Links carry a token: never kept by a cache, never indexed.
export const linkPageHeaders: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export function linkPageMeta(titleKey: string, descriptionKey: string) {
  return publicPageMeta(titleKey, descriptionKey, { index: false });
}

const STRONG = [<strong key="email" />, <strong key="number" className="font-mono" />];

/**
 * A link page's data and words: `say(key)` is a message with the subscriber's e-mail and the
 * parcel's number in bold (`<0>`, `<1>`), or with `numberOnly` the number alone (`<0>`).
 */
export function useLinkPage() {
  const data = useLoaderData() as LinkPageData;
  const { t } = useTranslation('public');
  const values = { email: data.email ?? '', trackingNumber: data.trackingNumber ?? '' };
  const say = (key: string, numberOnly = false) => (
    <Trans t={t} i18nKey={key} values={values} components={numberOnly ? STRONG.slice(1) : STRONG} />
  );
  return { data, t, say };
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

/**
 * A link page's question and its one button, which posts to the page itself: opening the link
 * changes nothing (mail scanners open links too), pressing the button does. `children` are the
 * hidden fields the post carries.
 */
export function LinkPageQuestion({
  question,
  button,
  children,
}: {
  question: ReactNode;
  button: string;
  children?: ReactNode;
}) {
  return (
    <>
      <p>{question}</p>
      <form method="post" className="mt-6">
        {children}
        <button type="submit" className="btn-primary">
          {button}
        </button>
      </form>
    </>
  );
}
