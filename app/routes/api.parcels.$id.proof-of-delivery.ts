import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
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
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  requireObjectId,
  validationError,
} from '~/lib/api.server';
import { readMultipart } from '~/lib/multipart.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';

/** GET /api/parcels/:id/proof-of-delivery → { proofsOfDelivery } by stop. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'parcel id');
    if (!(await getParcel(id))) throw new ApiError(404, 'Parcel not found');
    return json({ proofsOfDelivery: await listProofs(id) });
  });
}

/**
 * POST /api/parcels/:id/proof-of-delivery (multipart/form-data) → 201 { proofOfDelivery, parcel }:
 * receivedBy, 0–3 `photo` files, an optional PNG `signature`, `destination` (the stop, from 0),
 * `note`, `signatureName`. A file that is not an image is a 415 and nothing is stored.
 */
export function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'parcel id');
    return idempotent(request, async () => {
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
          Object.fromEntries(unknown.map((key) => [key, ['Unknown field']])),
        );
      const parsed = ProofOfDeliverySchema.safeParse(values);
      if (!parsed.success) throw validationError(parsed.error);
      const { proof, parcelStatus } = await recordProofOfDelivery(id, parsed.data, {
        user,
        context,
        via: 'api',
      });
      return json(
        {
          proofOfDelivery: proof,
          parcel: {
            id: proof.parcelId,
            trackingNumber: proof.trackingNumber,
            status: parcelStatus,
          },
        },
        { status: 201 },
      );
    });
  });
}
