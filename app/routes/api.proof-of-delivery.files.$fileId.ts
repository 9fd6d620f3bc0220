import { isProofFile } from '~/models/proof-of-delivery.server';
import { readFile } from '~/models/stored-file.server';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';

export const { loader, action } = apiRoute({
  /**
   * GET /api/proof-of-delivery/files/:fileId → a proof's photo or signature, for signed-in staff
   * (the session cookie, so the dashboard's <img> shows it) and API credentials; never public. The
   * stored bytes were re-encoded on upload, so their type is known; browsers are told not to guess
   * another, and not to keep a copy.
   */
  GET: apiHandler({ role: 'viewer', ids: { fileId: 'file id' } }, async ({ ids }) => {
    const file = await found(
      isProofFile(ids.fileId).then((yes) => (yes ? readFile(ids.fileId) : null)),
      'File not found',
    );
    return new Response(new Uint8Array(file.data), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Length': String(file.data.length),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': 'inline',
      },
    });
  }),
});
