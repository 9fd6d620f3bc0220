import { z } from './zod';

/** Text fields as the forms and the API read them: trimmed, bounded, named in their messages. */

/** Text up to `max` characters; empty is allowed. */
export const textField = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

/** Text that must be given, up to `max` characters. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
