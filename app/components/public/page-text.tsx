import { useLocation } from '@remix-run/react';
import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { keepLanguage } from '~/utils/page-language';
import { pageFigures } from '~/utils/page-figures';
import { useCompany } from '~/utils/use-company';

/**
 * The words of the marketing pages (app/locales/<language>/pages.json) in the page's language,
 * with what their sentences quote filled in: the company's name and contacts, and the figures,
 * prices and percentages written the language's way (`pageFigures`). Rendered on the server only:
 * the public pages load no script, so no language's messages travel to the browser.
 */
export function usePageText() {
  const { t, i18n } = useTranslation('pages');
  const company = useCompany();
  const { search } = useLocation();
  const values = {
    ...pageFigures(i18n.language),
    company: company.name,
    email: company.email,
    phone: company.phone,
  };
  return {
    /** The company's name and contacts, and the figures written the language's way. */
    values,
    t: (key: string, more?: Record<string, string | number>): string =>
      t(key, { ...values, ...more }),
    /** A message with tags (`<0>…</0>`), each drawn by its element in `parts`. */
    rich: (key: string, parts: ReactElement[]) => (
      <Trans t={t} i18nKey={key} values={values} components={parts} />
    ),
    /** A link within the site that keeps the language chosen in the URL. */
    href: (path: string) => keepLanguage(path, search),
    language: i18n.language,
  };
}
