import { getProof } from '~/models/proof-of-delivery.server';
import { apiRoute, found } from '~/http/api.server';
import { fileResponse } from '~/lib/http-cache.server';
import { apiHandler } from '~/http/api-handler.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { proofFilename, renderProofPdf } from '~/services/proof-render.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/parcels/:id/proof-of-delivery/:proofId.pdf (:id the parcel's id or tracking number) →
   * the proof as a one-page PDF.
   */
  GET: apiHandler(
    { role: 'viewer', ids: { id: resolveParcelRef, proofId: 'proof of delivery id' } },
    async ({ ids }) => {
      const proof = await found(getProof(ids.id, ids.proofId), 'Proof of delivery not found');
      const pdf = await renderProofPdf(proof);
      return fileResponse(new Uint8Array(pdf), {
        contentType: 'application/pdf',
        filename: proofFilename(proof),
        inline: true,
      });
    },
  ),
});
