import { listProofsByTrackingNumber } from '~/models/proof-of-delivery.server';
import { isProofFile } from '~/models/proof-of-delivery.server';
import { signToken, verifyToken } from '~/lib/cookies.server';
import { env } from '~/lib/env.server';
import { formatDateTime } from '~/utils/format';
import { checkRecipientPostcode, type PostcodeCheck } from './delivery-preferences.server';

/**
 * The proof of delivery for the recipient: shown only after the postcode check (counted like the
 * preferences' one), with each photo and signature behind a link signed for a few minutes, so a
 * file is never served to someone who did not pass the check (and a copied link soon stops).
 */

const LINK_MINUTES = 10;
const PURPOSE = 'public-proof-file';

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
  Exclude<PostcodeCheck, { kind: 'ok' }> | { kind: 'shown'; proofs: PublicProof[] };

/** The parcel's proofs, once the postcode opens it. */
export async function openProofOfDelivery(
  trackingNumber: string,
  postalCode: string,
  client: string,
): Promise<ProofOutcome> {
  const check = await checkRecipientPostcode(trackingNumber, postalCode, client);
  if (check.kind !== 'ok') return check;
  const proofs = await listProofsByTrackingNumber(trackingNumber);
  return {
    kind: 'shown',
    proofs: proofs.map((proof) => ({
      receivedBy: proof.receivedBy,
      deliveredAt: formatDateTime(proof.deliveredAt, env.COMPANY_TIMEZONE),
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
