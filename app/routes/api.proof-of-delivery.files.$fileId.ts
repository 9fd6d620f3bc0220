import { isProofFile } from '~/models/proof-of-delivery.server';
import { readFile } from '~/models/stored-file.server';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { file } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  /*
   * The session cookie is enough, so the dashboard's <img> shows it. The stored bytes were
   * re-encoded on upload, so their type is known; browsers are told not to guess another, and not
   * to keep a copy.
   */
  GET: apiHandler(
    {
      role: 'viewer',
      ids: { fileId: 'file id' },
      summary:
        "A proof of delivery's photo or signature (its own image type), for signed-in staff and API credentials only",
      description:
        "A proof of delivery's photo or signature, in its own image type, for signed-in staff and API credentials only; never public, never cached.",
      contentType: 'image/*',
      responses: { 200: file('image/*') },
      errors: [404],
    },
    async ({ ids }) => {
      const stored = await found(
        isProofFile(ids.fileId).then((yes) => (yes ? readFile(ids.fileId) : null)),
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
