import { z } from './zod';
import { SAFE_PLACES, SAFE_PLACE_CODES, type SafePlace } from './constants';
import { textField } from './text';

/**
 * What a recipient may ask of a delivery, behind their postcode: instructions for the courier, a
 * safe place, another day (one of the next five working days) or holding it at the depot. The
 * tracking page's form and `POST /api/tracking/track/:trackingNumber/delivery-preferences` parse
 * with the same schema.
 */

export const INSTRUCTIONS_MAX = 500;
export const SAFE_PLACE_OTHER_MAX = 100;
/** How many working days ahead another day may be asked for. */
export const REQUESTABLE_DAYS = 5;

export { SAFE_PLACES, SAFE_PLACE_CODES, type SafePlace };

export const POSTCODE_REQUIRED = 'Enter the postcode of the delivery address';
export const NOTHING_ASKED =
  'Choose at least one: instructions, a safe place, another day or holding it at the depot';

/** Postcodes compared as people type them: letter case and spaces don't matter. */
export function normalizePostcode(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * The schema for the days that may be asked for now (YYYY-MM-DD, in the company's zone). The API
 * refuses fields it does not know (`strict`); the page's form also carries its own.
 */
export function deliveryPreferencesSchema(
  days: readonly string[],
  { strict = false }: { strict?: boolean } = {},
) {
  const shape = z.object({
    postalCode: z
      .string({ error: POSTCODE_REQUIRED })
      .trim()
      .min(1, POSTCODE_REQUIRED)
      .max(20, 'A postcode is at most 20 characters'),
    instructions: textField('Instructions', INSTRUCTIONS_MAX).optional(),
    safePlace: z.enum(SAFE_PLACE_CODES, { error: 'Choose a safe place from the list' }).optional(),
    safePlaceOther: z
      .string({ error: 'The safe place must be text' })
      .trim()
      .max(
        SAFE_PLACE_OTHER_MAX,
        `The safe place must be at most ${SAFE_PLACE_OTHER_MAX} characters`,
      )
      .optional(),
    requestedDate: z
      .string({ error: 'Choose a day from the list' })
      .refine((day) => days.includes(day), {
        error: `Choose one of the next ${REQUESTABLE_DAYS} working days`,
      })
      .optional(),
    holdAtDepot: z.boolean({ error: 'holdAtDepot must be true or false' }).optional(),
  });
  return (strict ? shape.strict() : shape).superRefine((value, ctx) => {
    if (value.safePlace === 'other' && !value.safePlaceOther)
      ctx.addIssue({
        code: 'custom',
        path: ['safePlaceOther'],
        message: 'Say where the courier may leave it',
      });
    if (
      !value.instructions &&
      !value.safePlace &&
      !value.requestedDate &&
      value.holdAtDepot !== true
    )
      ctx.addIssue({ code: 'custom', path: [], message: NOTHING_ASKED });
  });
}
export type DeliveryPreferencesInput = z.infer<ReturnType<typeof deliveryPreferencesSchema>>;

/** The tracking page's form that opens the proof of delivery (through the recipient's link). */
export const ProofAccessSchema = z.object({
  proof: z.string().max(200).optional(),
  postalCode: z
    .string({ error: POSTCODE_REQUIRED })
    .trim()
    .min(1, POSTCODE_REQUIRED)
    .max(20, 'A postcode is at most 20 characters'),
});
