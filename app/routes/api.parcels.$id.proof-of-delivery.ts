import { json } from '@remix-run/node';
import { getParcel } from '~/models/parcel-reads.server';
import { listProofs } from '~/models/proof-of-delivery.server';
import {
  PROOF_FILE_FIELDS,
  PROOF_OF_DELIVERY_FIELDS,
  PROOF_PHOTO_MAX_BYTES,
  ProofOfDeliverySchema,
  proofFormValues,
} from '~/schemas/proof-of-delivery';
import { EXAMPLE_IDS, EXAMPLE_TRACKING_NUMBER } from '~/schemas/api-examples';
import { ApiError, apiRoute, found, UNKNOWN_FIELD, validationError } from '~/http/api.server';
import { readMultipart } from '~/http/multipart.server';
import { apiHandler } from '~/http/api-handler.server';
import { example, items, obj, ref, forAccounts } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';

// :id is the parcel's id or its tracking number.
const ids = { id: resolveParcelRef };

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      ids,
      summary: "The parcel's proofs of delivery, by stop",
      description: "The parcel's proofs of delivery, one per stop that has one, in one list.",
      responses: { 200: items('proofsOfDelivery', 'ProofOfDelivery') },
      errors: [404],
    },
    async ({ ids }) => {
      await found(getParcel(ids.id), 'Parcel not found');
      return json({ proofsOfDelivery: await listProofs(ids.id) });
    },
  ),
  POST: apiHandler(
    {
      role: 'courier',
      ids,
      idempotent: true,
      summary:
        "Record the proof of delivery of one stop (couriers and up): who received it, photos, a signature. It adds the stop's Delivered event; the parcel is Delivered with its last stop (then parcel.delivered carries every stop's proof id)",
      description:
        "Records the proof of delivery of one stop (couriers and up): who received it, up to three photos and a signature, as multipart/form-data. It adds the stop's Delivered event; the parcel is Delivered with its last stop, and parcel.delivered then carries every stop's proof id. A field it does not take is a 400 naming it.",
      rawBody: {
        contentType: 'multipart/form-data',
        example: { receivedBy: 'Ada Lovelace', note: 'Left with the recipient' },
        schema: {
          type: 'object',
          properties: {
            receivedBy: { type: 'string', minLength: 1, maxLength: 200 },
            destination: {
              type: 'string',
              pattern: '^\\d{1,3}$',
              description: 'The stop, from 0 (default 0: the recipient, or the single destination)',
            },
            note: { type: 'string', maxLength: 1000 },
            signatureName: {
              type: 'string',
              maxLength: 200,
              description: 'A typed name standing for a signature',
            },
            photo: {
              type: 'array',
              maxItems: 3,
              items: { type: 'string', contentMediaType: 'image/*' },
              description: 'JPEG, PNG or WebP, at most 10 MB each; the field repeated per photo',
            },
            signature: {
              type: 'string',
              contentMediaType: 'image/png',
              description: 'A PNG, at most 2 MB',
            },
          },
          required: ['receivedBy'],
          additionalProperties: false,
        },
        description:
          'Photos and signature are decoded and re-encoded (at most 2,048 px, all metadata removed); a file that does not decode as an accepted image is a 415 (code unsupported_image) and nothing is stored. A picture over 50 megapixels, or over 160 MB decoded (width × height × channels × bytes per sample, read from its header), is a 413 (code image_too_large) before anything is decoded. A stop that already has a proof is a 409 (code proof_of_delivery_exists).',
      },
      responses: {
        201: {
          schema: obj({
            proofOfDelivery: ref('ProofOfDelivery'),
            parcel: obj({
              id: { type: 'string' },
              trackingNumber: { type: 'string' },
              status: { type: 'string' },
            }),
          }),
          example: {
            proofOfDelivery: example('ProofOfDelivery'),
            parcel: {
              id: EXAMPLE_IDS.parcel,
              trackingNumber: EXAMPLE_TRACKING_NUMBER,
              status: 'Delivered',
            },
          },
        },
      },
      errors: [404],
    },
    async ({ request, ids, actor }) => {
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
          parcel: {
            id: proof.parcelId,
            trackingNumber: proof.trackingNumber,
            status: parcelStatus,
          },
        },
        { status: 201 },
      );
    },
  ),
});
