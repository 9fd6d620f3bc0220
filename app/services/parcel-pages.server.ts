import { json } from '@remix-run/node';
import type { z } from 'zod';
import {
  applyDestinationIntent,
  formFieldErrors,
  parcelFormToInput,
  type ParcelFormValues,
} from '~/schemas/parcel';
import { createToastHeaders } from './flash.server';

type FormState = { values: ParcelFormValues; revision: string };

/**
 * The Create and Edit parcel forms as submitted: the checked data, or the answer to send back
 * at once (the form again after a destination row was added or removed, or with field errors).
 */
export async function readParcelForm<T>(request: Request, schema: z.ZodType<T>) {
  const formData = await request.formData();
  const values = parcelFormToInput(formData);
  const revision = crypto.randomUUID();
  if (applyDestinationIntent(values, formData.get('intent'))) {
    return { answer: json({ values, fieldErrors: {}, formErrors: [] as string[], revision }) };
  }
  const result = schema.safeParse(values);
  if (!result.success) {
    return {
      answer: json(
        {
          values,
          fieldErrors: formFieldErrors(result.error),
          formErrors: [] as string[],
          revision,
        },
        { status: 400 },
      ),
    };
  }
  return { data: result.data, values, revision };
}

/** The answer when saving a parcel failed on our side: the form says so and the spec's toast shows. */
export async function parcelSaveFailed(
  request: Request,
  verb: 'create' | 'update',
  { values, revision }: FormState,
  error: unknown,
) {
  console.error(`Could not ${verb} a parcel:`, error);
  const message = `Failed to ${verb} parcel. Please try again.`;
  return json(
    { values, fieldErrors: {} as Record<string, string[]>, formErrors: [message], revision },
    {
      status: 503,
      headers: await createToastHeaders(request, {
        type: 'error',
        title: verb === 'create' ? 'Error creating parcel' : 'Error updating parcel',
        description: message,
      }),
    },
  );
}
