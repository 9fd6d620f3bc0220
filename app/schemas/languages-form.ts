import { z } from './zod';
import { LANGUAGE_CODES, type Language } from './languages';

/** The footer's choice of language: one of the languages we write. */
export const LanguageChoiceSchema = z.object({
  lang: z.enum(LANGUAGE_CODES as [Language, ...Language[]], {
    error: `Language must be one of: ${LANGUAGE_CODES.join(', ')}`,
  }),
});
