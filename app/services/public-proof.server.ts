import { listProofsByTrackingNumber } from '~/models/proof-of-delivery.server';
import { isProofFile } from '~/models/proof-of-delivery.server';
import { signToken, verifyToken } from '~/lib/cookies.server';
import { publicUrl } from '~/lib/urls.server';
import { stopTimeZone } from '~/lib/address-time-zone.server';
import { longDateTime } from '~/utils/delivery-headline';
import { checkRecipientPostcode, type PostcodeCheck } from './delivery-preferences.server';

/**
 * The proof of delivery for the recipient. The postcode alone opens nothing (it is public
 * knowledge: a directory gives it from the town and street): the photos and signature are shown
 * only through the link signed for the recipient and sent in the delivered e-mail, and then after
 * the postcode check too (counted like the preferences' one), each file behind a link signed for
 * a few minutes, so a file is never served to someone who did not pass both (and a copied file
 * link soon stops). Staff see them in the dashboard.
 */

const LINK_MINUTES = 10;
const PURPOSE = 'public-proof-file';
const PROOF_LINK_PURPOSE = 'public-proof';
export const PROOF_NEEDS_LINK =
  'The photos and the signature open from the link in the e-mail sent at delivery';

/** How long the delivered e-mail's link opens the proof: the claims window. */
export const PROOF_LINK_DAYS = 30;

/** The signed value of the recipient's proof link (`expires.token`). */
export function proofAccessValue(trackingNumber: string, now = Date.now()): string {
  const expires = String(Math.floor(now / 1000) + PROOF_LINK_DAYS * 86_400);
  return `${expires}.${signToken(PROOF_LINK_PURPOSE, `${trackingNumber}.${expires}`)}`;
}

/** The tracking page's proof section, opened for the recipient: the link the e-mail carries. */
export function proofLink(trackingNumber: string): string {
  return publicUrl(
    `/track?${new URLSearchParams({ number: trackingNumber, proof: proofAccessValue(trackingNumber) })}#proof`,
  );
}

/** Whether `value` is a genuine, unexpired proof link value for this parcel. */
export function isProofAccess(trackingNumber: string, value: string | null | undefined): boolean {
  const [expires = '', token = ''] = (value ?? '').split('.');
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < Date.now()) return false;
  return verifyToken(PROOF_LINK_PURPOSE, `${trackingNumber}.${expires}`, token);
}

export function proofFileHref(fileId: string, now = Date.now()): string {
  const expires = String(Math.floor(now / 1000) + LINK_MINUTES * 60);
  const token = signToken(PURPOSE, `${fileId}.${expires}`);
  return `/track/proof/${fileId}?${new URLSearchParams({ expires, token })}`;
}

/** Whether a signed link is genuine, unexpired and names a proof's file. */
export async function isSignedProofFile(fileId: string, expires: string, token: string) {
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < Date.now()) return false;
  if (!verifyToken(PURPOSE, `${fileId}.${expires}`, token)) return false;
  return isProofFile(fileId);
}

export type PublicProof = {
  receivedBy: string;
  deliveredAt: string;
  photos: Array<{ url: string; width: number; height: number }>;
  signature: { url: string; width: number; height: number } | null;
};

export type ProofOutcome =
  | Exclude<PostcodeCheck, { kind: 'ok' }>
  | { kind: 'no-link' }
  | { kind: 'shown'; proofs: PublicProof[] };

/** The parcel's proofs, through the recipient's signed link and once the postcode opens it. */
export async function openProofOfDelivery(
  trackingNumber: string,
  postalCode: string,
  client: string,
  access: string | null | undefined,
): Promise<ProofOutcome> {
  if (!isProofAccess(trackingNumber, access)) return { kind: 'no-link' };
  const check = await checkRecipientPostcode(trackingNumber, postalCode, client);
  if (check.kind !== 'ok') return check;
  const proofs = await listProofsByTrackingNumber(trackingNumber);
  return {
    kind: 'shown',
    proofs: proofs.map((proof) => ({
      receivedBy: proof.receivedBy,
      deliveredAt: longDateTime(proof.deliveredAt, stopTimeZone(check.parcel, proof.destination)),
      photos: proof.photos.map((p) => ({
        url: proofFileHref(p.id),
        width: p.width,
        height: p.height,
      })),
      signature: proof.signature
        ? {
            url: proofFileHref(proof.signature.id),
            width: proof.signature.width,
            height: proof.signature.height,
          }
        : null,
    })),
  };
}
