import { proofFileParcelId } from '~/models/proof-of-delivery.server';
import { parcelInScope } from '~/models/parcel-reads.server';
import { readFile } from '~/models/stored-file.server';
import { scopeFilter, scopeOf } from '~/lib/tenancy.server';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { file, forAccounts } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  /*
   * The session cookie is enough, so the dashboard's and the portal's <img> show it. A shipper
   * account sees its own parcels' files only: another's is not there (404). The stored bytes were
   * re-encoded on upload, so their type is known; browsers are told not to guess another, and not
   * to keep a copy.
   */
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      ids: { fileId: 'file id' },
      summary:
        "A proof of delivery's photo or signature (its own image type), for signed-in staff, API credentials and the parcel's own account only",
      description:
        "A proof of delivery's photo or signature, in its own image type, for signed-in staff and API credentials, and for a shipper account only when the parcel is its own (404 otherwise); never public, never cached.",
      contentType: 'image/*',
      responses: { 200: file('image/*') },
      errors: [404],
    },
    async ({ ids, actor }) => {
      const scope = scopeOf(actor);
      const stored = await found(
        proofFileParcelId(ids.fileId).then(async (parcelId) =>
          parcelId && (!scope || (await parcelInScope(parcelId, scopeFilter(scope))))
            ? readFile(ids.fileId)
            : null,
        ),
        'File not found',
      );
      return new Response(new Uint8Array(stored.data), {
        headers: {
          'Content-Type': stored.contentType,
          'Content-Length': String(stored.data.length),
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Disposition': 'inline',
        },
      });
    },
  ),
});
