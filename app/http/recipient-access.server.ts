import { isSecureRequest, recipientCookie } from '~/lib/cookies.server';

/**
 * After the recipient's postcode opened their parcel on the tracking page, this browser may read
 * back what they asked for, for half an hour: a signed cookie names the parcels (at most a few),
 * so nothing about the visit is stored and nobody else sees the preferences.
 */

const MAX_PARCELS = 5;

/** The parcels this browser opened with the recipient's postcode (trackNumbers reads their preferences). */
export async function openedParcels(request: Request): Promise<string[]> {
  const value: unknown = await recipientCookie.parse(request.headers.get('Cookie'));
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];
}

/** The Set-Cookie value that lets this browser read the parcel's preferences back. */
export async function grantRecipientAccess(request: Request, trackingNumber: string) {
  const opened = (await openedParcels(request)).filter((n) => n !== trackingNumber);
  return recipientCookie.serialize([trackingNumber, ...opened].slice(0, MAX_PARCELS), {
    secure: isSecureRequest(request),
  });
}
