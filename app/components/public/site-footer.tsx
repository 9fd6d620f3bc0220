import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { NewsletterSchema } from '~/schemas/public-forms';
import type { CompanyInfo } from '~/lib/env.server';
import { LANGUAGES } from '~/schemas/languages';
import { keepLanguage } from '~/utils/page-language';
import { NAV_LINKS } from './site-header';
import { usePublicMessages } from './public-messages';

/** Posts to /newsletter, which answers with a flash message back on the page it was sent from. */
export function NewsletterForm() {
  const [form, fields] = useForm({
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewsletterSchema }),
  });
  const location = useLocation();
  const { t } = useTranslation('public');
  const { messages } = usePublicMessages();
  return (
    <form
      method="post"
      action="/newsletter"
      {...getFormProps(form)}
      className="flex flex-col gap-2 sm:flex-row sm:items-start"
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {/* Left empty by people; bots that fill every field are ignored. */}
      <div aria-hidden="true" className="absolute -start-[9999px]">
        <label>
          {t('footer.honeypot')}
          <input type="text" name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      <label htmlFor="newsletter-email" className="sr-only">
        {t('footer.emailLabel')}
      </label>
      <div className="w-full min-w-0">
        <input
          {...getInputProps(fields.email, { type: 'email' })}
          id="newsletter-email"
          required
          maxLength={254}
          placeholder={t('footer.emailPlaceholder')}
          autoComplete="email"
          className="w-full min-w-0 rounded-md border border-blue-300 bg-brand-900 px-3 py-2 text-sm text-white placeholder:text-blue-200"
        />
        {fields.email.errors ? (
          <p id={fields.email.errorId} className="mt-1 text-sm text-red-200">
            {messages(fields.email.errors)?.join(' ')}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-accent">
        {t('footer.subscribe')}
      </button>
    </form>
  );
}

/**
 * The choice of language: a plain form (no script needed) whose answer sets the `lang` cookie and
 * comes back to this page, in that language from then on.
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation('public');
  const { pathname, search } = useLocation();
  return (
    <form method="post" action="/language" className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <label htmlFor="language-choice">
        <span aria-hidden="true">🌐 </span>
        {t('footer.language')}
      </label>
      <select
        id="language-choice"
        name="lang"
        defaultValue={i18n.language}
        className="rounded-md border border-blue-300 bg-brand-900 px-2 py-1 text-white"
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="rounded-md border border-blue-300 px-3 py-1 font-semibold text-white hover:bg-brand-800"
      >
        {t('footer.changeLanguage')}
      </button>
    </form>
  );
}

export function SiteFooter({ company }: { company: CompanyInfo }) {
  const { t } = useTranslation('public');
  const { search } = useLocation();
  const href = (to: string) => keepLanguage(to, search);
  return (
    <footer className="mt-auto bg-brand-900 text-blue-100">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{company.name}</p>
          <p className="mt-3 text-sm">{t('footer.about')}</p>
        </div>
        <nav aria-label={t('footer.quickLinks')}>
          <h2 className="font-semibold text-white">{t('footer.quickLinks')}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <a href={href(link.to)} className="hover:text-white hover:underline">
                  {t(`layout.nav.${link.label}`)}
                </a>
              </li>
            ))}
            <li>
              <a href={href('/quote')} className="hover:text-white hover:underline">
                {t('layout.getQuote')}
              </a>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="font-semibold text-white">{t('footer.contact')}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a
                href={`tel:${company.phone.replace(/[^\d+]/g, '')}`}
                className="hover:text-white hover:underline"
              >
                <bdi>{t('footer.phone', { phone: company.phone })}</bdi>
              </a>
            </li>
            <li>
              <a
                href={`mailto:${company.email}`}
                className="[overflow-wrap:anywhere] hover:text-white hover:underline"
              >
                {company.email}
              </a>
            </li>
            <li>350 Fifth Avenue, Suite 4100, New York, NY 10118</li>
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-white">{t('footer.newsletter')}</h2>
          <p className="mb-3 mt-3 text-sm">{t('footer.newsletterText')}</p>
          <NewsletterForm />
        </div>
      </div>
      <div className="border-t border-brand-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>{t('footer.rights', { company: company.name })}</p>
          <LanguagePicker />
          <nav aria-label={t('footer.legal')}>
            <ul className="flex flex-wrap gap-4">
              <li>
                <a href={href('/privacy-policy')} className="hover:text-white hover:underline">
                  {t('footer.privacy')}
                </a>
              </li>
              <li>
                <a href={href('/terms-of-service')} className="hover:text-white hover:underline">
                  {t('footer.terms')}
                </a>
              </li>
              <li>
                <a href={href('/cookie-policy')} className="hover:text-white hover:underline">
                  {t('footer.cookies')}
                </a>
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
