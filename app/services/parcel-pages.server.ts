import type { Submission } from '@conform-to/react';
import { json } from '@remix-run/node';
import { createToastHeaders } from '~/lib/flash.server';

/** The answer when saving a parcel failed on our side: the form says so and the spec's toast shows. */
export async function parcelSaveFailed(
  request: Request,
  verb: 'create' | 'update',
  submission: Submission<unknown>,
  error: unknown,
) {
  console.error(`Could not ${verb} a parcel:`, error);
  const message = `Failed to ${verb} parcel. Please try again.`;
  return json(submission.reply({ formErrors: [message] }), {
    status: 503,
    headers: await createToastHeaders(request, {
      type: 'error',
      title: verb === 'create' ? 'Error creating parcel' : 'Error updating parcel',
      description: message,
    }),
  });
}
