import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { isProofFile } from '~/models/proof-of-delivery.server';
import { readFile } from '~/models/stored-file.server';
import { ApiError, handleApi, methodNotAllowed, requireObjectId } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

/**
 * GET /api/proof-of-delivery/files/:fileId → a proof's photo or signature, for signed-in staff
 * (the session cookie, so the dashboard's <img> shows it) and API credentials; never public. The
 * stored bytes were re-encoded on upload, so their type is known; browsers are told not to guess
 * another, and only the signed-in browser may keep a copy.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.fileId, 'file id');
    const file = (await isProofFile(id)) ? await readFile(id) : null;
    if (!file) throw new ApiError(404, 'File not found');
    return new Response(new Uint8Array(file.data), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Length': String(file.data.length),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': 'inline',
      },
    });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
