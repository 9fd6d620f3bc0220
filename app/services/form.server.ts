/**
 * The submitted form of a page action. A body that is not a form (JSON, a broken multipart
 * message, no body at all) is the client's mistake: 400, never a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    // Cut off at the size limit: the server has already answered 413.
    if (error instanceof Error && error.name === 'PayloadTooLargeError') throw error;
    throw new Response('The request body is not a form submission', {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
}
