import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node';
import { ApiError, UNKNOWN_FIELD } from '~/http/api.server';
import { readFormData } from '~/lib/form.server';

/**
 * A multipart/form-data body read with Remix's own parser into memory: files only for the
 * `fileFields` named, each at most `maxFileBytes` (413 naming the field past that); a file under
 * any other name is a 400 naming it, as an unknown text field is; 415 for a body of another type,
 * 400 for one that does not parse. The server bounds the whole body beforehand (server/index.js),
 * so nothing here is read without limit.
 */
export async function readMultipart(
  request: Request,
  { fileFields, maxFileBytes }: { fileFields: readonly string[]; maxFileBytes: number },
): Promise<FormData> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? ''))
    throw new ApiError(
      415,
      'Request body must be multipart/form-data (Content-Type: multipart/form-data)',
    );
  const files = unstable_createMemoryUploadHandler({ maxPartSize: maxFileBytes });
  try {
    return await unstable_parseMultipartFormData(request, async (part) => {
      if (part.filename !== undefined && !fileFields.includes(part.name))
        throw new ApiError(400, 'Validation failed', { [part.name]: [UNKNOWN_FIELD] });
      try {
        return await files(part);
      } catch (error) {
        if (error instanceof MaxPartSizeExceededError) {
          const message = `Each file must be at most ${Math.round(maxFileBytes / (1024 * 1024))} MB`;
          throw new ApiError(413, message, { [part.name]: [message] });
        }
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Cut off at the size limit: the server has already answered 413.
    if (error instanceof Error && error.name === 'PayloadTooLargeError') throw error;
    throw new ApiError(400, 'The request body is not a valid multipart/form-data message');
  }
}

/**
 * A page's form as sent: a multipart upload (its files in memory, each at most `maxPartSize`;
 * the server bounds the whole body first), or a plain form such as a confirmation's. A body that
 * does not parse is a 400 page.
 */
export async function readFormOrUpload(request: Request, maxPartSize: number): Promise<FormData> {
  if (!/^multipart\/form-data/i.test(request.headers.get('content-type') ?? ''))
    return readFormData(request);
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize }),
    );
  } catch (error) {
    // Cut off at the size limit: the server has already answered 413.
    if (error instanceof Error && error.name === 'PayloadTooLargeError') throw error;
    throw new Response('The request body is not a form submission', {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
}
