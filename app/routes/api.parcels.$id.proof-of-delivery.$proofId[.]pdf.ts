import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { getProof } from '~/models/proof-of-delivery.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';
import { proofFilename, renderProofPdf } from '~/services/proof-render.server';

/** GET /api/parcels/:id/proof-of-delivery/:proofId.pdf → the proof as a one-page PDF. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'parcel id');
    const proofId = requireObjectId(params.proofId, 'proof of delivery id');
    const proof = await getProof(id, proofId);
    if (!proof) throw new ApiError(404, 'Proof of delivery not found');
    const pdf = await renderProofPdf(proof);
    return new Response(new Uint8Array(pdf), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.length),
        'Content-Disposition': `inline; filename="${proofFilename(proof)}"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
