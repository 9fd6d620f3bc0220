import { env } from '~/lib/env.server';
import { translator } from '~/lib/i18n.server';
import { trackingUrl } from '~/lib/urls.server';
import type { Language } from '~/schemas/languages';
import { ButtonLink, Heading, renderEmailHtml, Strong, textSignature } from './layout.server';

/**
 * The double opt-in e-mail to someone who asked for updates on a parcel, in the language they
 * asked in.
 */
export function subscriptionConfirmEmail({
  to,
  trackingNumber,
  link,
  hours,
  language,
}: {
  to: string;
  trackingNumber: string;
  link: string;
  hours: number;
  language: Language;
}) {
  const t = translator(language);
  const subject = t('subscription.subject', { trackingNumber });
  const text = [
    t('subscription.asked', { trackingNumber, company: env.COMPANY_NAME }),
    '',
    t('subscription.confirmWithin', { hours }),
    link,
    '',
    t('subscription.ignore'),
    '',
    t('subscription.track', { url: trackingUrl(trackingNumber) }),
    '',
    ...textSignature(),
  ].join('\n');
  const html = renderEmailHtml(
    subject,
    <>
      <Heading>{subject}</Heading>
      <p>
        <Strong message={t('subscription.askedHtml', { trackingNumber })} />
      </p>
      <p>{t('subscription.confirmWithin', { hours })}</p>
      <ButtonLink href={link} language={language}>
        {t('subscription.button')}
      </ButtonLink>
      <p>{t('subscription.ignore')}</p>
    </>,
    language,
  );
  return { to, subject, text, html };
}
