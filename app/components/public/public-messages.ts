import { useTranslation } from 'react-i18next';
import { TRACKING_NOT_FOUND, TRACKING_NUMBER_FORMAT_MESSAGE } from '~/schemas/constants';
import { NOTHING_ASKED, POSTCODE_REQUIRED } from '~/schemas/delivery-preferences';
import { EMPTY_TRACKING_MESSAGE } from '~/schemas/public-tracking';

/**
 * The server's refusals that a public page shows (the shared schemas' and services' messages,
 * which the API keeps in English), by their English words: each one's message in the page's
 * language. A refusal not listed here is shown as it came.
 */
export const PUBLIC_MESSAGE_KEYS: Record<string, string> = {
  [TRACKING_NOT_FOUND]: 'errors.notFound',
  [TRACKING_NUMBER_FORMAT_MESSAGE]: 'errors.format',
  [EMPTY_TRACKING_MESSAGE]: 'errors.empty',
  'Failed to track package. Please try again.': 'errors.failed',
  'This parcel has been delivered: there are no more updates to send.': 'errors.delivered',
  'That postcode does not match the delivery address': 'errors.wrongPostcode',
  'This parcel has arrived at its end: its delivery cannot change': 'errors.closed',
  'The photos and the signature open from the link in the e-mail sent at delivery':
    'errors.proofNeedsLink',
  'Enter a valid email address': 'errors.emailInvalid',
  'Email is required': 'errors.emailRequired',
  [POSTCODE_REQUIRED]: 'errors.postcodeRequired',
  [NOTHING_ASKED]: 'errors.nothingAsked',
};

/** Translates the server's messages for the page (`PUBLIC_MESSAGE_KEYS`). */
export function usePublicMessages() {
  const { t } = useTranslation('public');
  const message = (text: string) => {
    const key = PUBLIC_MESSAGE_KEYS[text];
    return key ? t(key) : text;
  };
  return {
    message,
    messages: (list: string[] | null | undefined) => list?.map(message),
  };
}
