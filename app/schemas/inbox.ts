import { z } from './zod';

/** The inbox's three kinds: contact messages, quote requests and newsletter subscriptions. */
export const INBOX_KINDS = ['contact', 'quote', 'newsletter'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];
export const INBOX_KIND_LABELS: Record<InboxKind, string> = {
  contact: 'Contact messages',
  quote: 'Quote requests',
  newsletter: 'Newsletter subscribers',
};
export const INBOX_STATES = ['all', 'open', 'handled'] as const;
export type InboxState = (typeof INBOX_STATES)[number];
export const INBOX_PAGE_SIZE = 25;

const positiveInt = z
  .string()
  .trim()
  .regex(/^\d+$/)
  .transform(Number)
  .pipe(z.number().int().min(1));

/** The list's query, read leniently: anything unknown falls back to its default. */
export const InboxQuerySchema = z.object({
  kind: z.enum(INBOX_KINDS).catch('contact'),
  state: z.enum(INBOX_STATES).catch('all'),
  page: positiveInt.catch(1),
});
export type InboxQuery = z.output<typeof InboxQuerySchema>;

/** "Mark handled" and "Mark unhandled": one button each, on an item's page. */
export const InboxHandleSchema = z.object({
  handled: z.enum(['true', 'false'], { error: 'Choose handled or not handled' }),
});
