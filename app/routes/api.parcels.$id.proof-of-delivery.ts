import { json } from '@remix-run/node';
import { getParcel } from '~/models/parcel.server';
import { listProofs } from '~/models/proof-of-delivery.server';
import {
  PROOF_FILE_FIELDS,
  PROOF_OF_DELIVERY_FIELDS,
  PROOF_PHOTO_MAX_BYTES,
  ProofOfDeliverySchema,
  proofFormValues,
} from '~/schemas/proof-of-delivery';
import { ApiError, apiRoute, found, UNKNOWN_FIELD, validationError } from '~/http/api.server';
import { readMultipart } from '~/http/multipart.server';
import { apiHandler } from '~/http/api-handler.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';

// :id is the parcel's id or its tracking number.
const ids = { id: resolveParcelRef };

export const { loader, action } = apiRoute({
  /** GET /api/parcels/:id/proof-of-delivery → { proofsOfDelivery } by stop. */
  GET: apiHandler({ role: 'viewer', ids }, async ({ ids }) => {
    await found(getParcel(ids.id), 'Parcel not found');
    return json({ proofsOfDelivery: await listProofs(ids.id) });
  }),
  /**
   * POST /api/parcels/:id/proof-of-delivery (multipart/form-data) → 201 { proofOfDelivery, parcel }:
   * receivedBy, 0–3 `photo` files, an optional PNG `signature`, `destination` (the stop, from 0),
   * `note`, `signatureName`. A file that is not an image is a 415 and nothing is stored.
   */
  POST: apiHandler({ role: 'courier', ids, idempotent: true }, async ({ request, ids, actor }) => {
    const form = await readMultipart(request, {
      fileFields: PROOF_FILE_FIELDS,
      maxFileBytes: PROOF_PHOTO_MAX_BYTES,
    });
    const values = proofFormValues(form);
    const unknown = Object.keys(values).filter((key) => !PROOF_OF_DELIVERY_FIELDS.includes(key));
    if (unknown.length)
      throw new ApiError(
        400,
        'Validation failed',
        Object.fromEntries(unknown.map((key) => [key, [UNKNOWN_FIELD]])),
      );
    const parsed = ProofOfDeliverySchema.safeParse(values);
    if (!parsed.success) throw validationError(parsed.error);
    const { proof, parcelStatus } = await recordProofOfDelivery(ids.id, parsed.data, actor);
    return json(
      {
        proofOfDelivery: proof,
        parcel: { id: proof.parcelId, trackingNumber: proof.trackingNumber, status: parcelStatus },
      },
      { status: 201 },
    );
  }),
});
