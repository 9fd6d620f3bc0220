import type { LoaderFunctionArgs } from '@remix-run/node';
import { fileResponse } from '~/lib/http-cache.server';
import { readFile } from '~/models/stored-file.server';
import { isSignedProofFile } from '~/services/public-proof.server';

/**
 * A proof-of-delivery photo or signature for the recipient: only through the short-lived link the
 * tracking page signs after their postcode check; anything else is 404, never the file.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const fileId = params.fileId ?? '';
  const ok = await isSignedProofFile(
    fileId,
    url.searchParams.get('expires') ?? '',
    url.searchParams.get('token') ?? '',
  );
  const file = ok ? await readFile(fileId) : null;
  if (!file)
    return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return fileResponse(new Uint8Array(file.data), {
    contentType: file.contentType,
    filename: `proof-${fileId}.${file.contentType.split('/')[1] ?? 'bin'}`,
    inline: true,
  });
}
