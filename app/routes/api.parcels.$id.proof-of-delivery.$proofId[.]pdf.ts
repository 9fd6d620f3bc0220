import { getProof } from '~/models/proof-of-delivery.server';
import { apiRoute, found } from '~/http/api.server';
import { fileResponse } from '~/lib/http-cache.server';
import { apiHandler } from '~/http/api-handler.server';
import { file, forAccounts } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { proofFilename, renderProofPdf } from '~/services/proof-render.server';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      ids: { id: resolveParcelRef, proofId: 'proof of delivery id' },
      summary: 'A proof of delivery as a one-page PDF',
      description: 'One proof of delivery as a one-page PDF, with its photos and signature.',
      contentType: 'application/pdf',
      responses: { 200: file('application/pdf') },
      errors: [404],
    },
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
