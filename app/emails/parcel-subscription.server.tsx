import { env } from '~/lib/env.server';
import { trackingUrl } from '~/lib/urls.server';
import { ButtonLink, Heading, renderEmailHtml, textSignature } from './layout.server';

/** The double opt-in e-mail to someone who asked for updates on a parcel. */
export function subscriptionConfirmEmail({
  to,
  trackingNumber,
  link,
  hours,
}: {
  to: string;
  trackingNumber: string;
  link: string;
  hours: number;
}) {
  const subject = `Confirm e-mail updates for parcel ${trackingNumber}`;
  const text = [
    `Someone, hopefully you, asked for e-mail updates about parcel ${trackingNumber} at ${env.COMPANY_NAME}.`,
    '',
    `To get an e-mail at every new scan until delivery, confirm within ${hours} hours:`,
    link,
    '',
    'If you did not ask for this, ignore this e-mail: nothing more will be sent.',
    '',
    `Track the parcel: ${trackingUrl(trackingNumber)}`,
    '',
    ...textSignature(),
  ].join('\n');
  const html = renderEmailHtml(
    subject,
    <>
      <Heading>{subject}</Heading>
      <p>
        Someone, hopefully you, asked for e-mail updates about parcel{' '}
        <strong>{trackingNumber}</strong>.
      </p>
      <p>To get an e-mail at every new scan until delivery, confirm within {hours} hours:</p>
      <ButtonLink href={link}>Confirm e-mail updates</ButtonLink>
      <p>If you did not ask for this, ignore this e-mail: nothing more will be sent.</p>
    </>,
  );
  return { to, subject, text, html };
}
