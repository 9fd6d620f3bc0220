import { QuotePageQuerySchema, type QuoteCreateInput } from './rate-card';
import { OBJECT_ID_PATTERN, SERVICE_TYPES } from './constants';
import { z } from './zod';

/**
 * A visitor's booking, paid by card (the public /book page): the "Book and pay" button under a
 * price on /quote, which holds that price as a quote, and the booking form, which books the
 * parcel at the quote's price. The price is never sent by the browser: the quote's id carries it.
 */

/** "Book and pay" under one service's price: the pricer's fields and the service. */
export const BookAndPaySchema = QuotePageQuerySchema.and(
  z.object({ serviceType: z.enum(SERVICE_TYPES) }),
).transform((value) => value as QuoteCreateInput & { serviceType: (typeof SERVICE_TYPES)[number] });

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);
const required = (max: number) => text(max).min(1, 'Required');
const email = text(200).pipe(z.email('Invalid email address'));
const phone = text(40).regex(/^[+()\d\s.-]{5,40}$/, 'Invalid phone number');
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** The booking form: who sends and who receives; the parcel and its price are the quote's. */
export const BookingFormSchema = z.object({
  quoteId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid quote'),
  senderName: required(200),
  senderEmail: email,
  senderPhone: phone,
  senderAddress: required(500),
  senderCity: required(100),
  recipientName: required(200),
  recipientEmail: optional(email),
  recipientPhone: optional(phone),
  recipientAddress: required(500),
  recipientCity: required(100),
});
export type BookingForm = z.output<typeof BookingFormSchema>;

/** The booking form's fields, in order, with what each is (for its label and autocomplete). */
export const BOOKING_FIELDS = {
  sender: ['senderName', 'senderEmail', 'senderPhone', 'senderAddress', 'senderCity'],
  recipient: [
    'recipientName',
    'recipientEmail',
    'recipientPhone',
    'recipientAddress',
    'recipientCity',
  ],
} as const;
