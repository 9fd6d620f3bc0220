import type { Submission } from '@conform-to/react';
import { saveFailed } from '~/lib/form-reply.server';

/** The answer when saving a parcel failed on our side: the form says so and the spec's toast shows. */
export function parcelSaveFailed(
  request: Request,
  verb: 'create' | 'update',
  submission: Submission<unknown>,
  error: unknown,
) {
  const message = `Failed to ${verb} parcel. Please try again.`;
  return saveFailed(request, submission, error, {
    formError: message,
    toast: {
      title: verb === 'create' ? 'Error creating parcel' : 'Error updating parcel',
      description: message,
    },
  });
}
