import { MAX_PAGE_SIZE } from './constants';
import type { UserRole } from './user';
import { z } from './zod';
import { positiveInt } from './paging';

export const AUDIT_ENTITY_NAMES = [
  'parcel',
  'event',
  'notification',
  'receipt',
  'user',
  'template',
  'key',
  'webhook',
  'inquiry',
  'subscription',
  'proof',
  'depot',
  'settings',
  'run',
  'account',
  'pickup',
  'statement',
] as const;
/**
 * Who may read one record's history: the roles that may read the record itself. Users, API keys
 * and webhooks are the admin areas (an API key also needs the admin scope); what visitors sent
 * (the inbox) is for staff.
 */
export const AUDIT_READERS: Record<(typeof AUDIT_ENTITY_NAMES)[number], UserRole> = {
  parcel: 'viewer',
  event: 'viewer',
  notification: 'viewer',
  receipt: 'viewer',
  template: 'viewer',
  user: 'admin',
  key: 'admin',
  webhook: 'admin',
  inquiry: 'staff',
  subscription: 'staff',
  proof: 'viewer',
  depot: 'courier',
  settings: 'admin',
  run: 'viewer',
  account: 'admin',
  pickup: 'viewer',
  statement: 'staff',
};

/** `import`: a parcel created by a CSV import (one entry per parcel, written together). */
export const AUDIT_ACTION_NAMES = ['create', 'update', 'delete', 'import', 'reopen'] as const;

const blankAsUndefined = <T extends string>(value: T | '' | undefined): T | undefined =>
  value || undefined;

/** GET /api/audit and the admin's audit page. */
export const AuditQuerySchema = z.object({
  entity: z
    .union([z.literal(''), z.enum(AUDIT_ENTITY_NAMES)], {
      error: `Entity must be one of: ${AUDIT_ENTITY_NAMES.join(', ')}`,
    })
    .optional()
    .transform(blankAsUndefined),
  entityId: z
    .string()
    .trim()
    .regex(/^([a-f\d]{24})?$/i, 'Entity id must be an id')
    .optional()
    .transform(blankAsUndefined),
  action: z
    .union([z.literal(''), z.enum(AUDIT_ACTION_NAMES)], {
      error: `Action must be one of: ${AUDIT_ACTION_NAMES.join(', ')}`,
    })
    .optional()
    .transform(blankAsUndefined),
  actor: z.string().trim().max(50, 'At most 50 characters').optional().transform(blankAsUndefined),
  page: positiveInt('Page').default(1),
  limit: positiveInt('Limit', MAX_PAGE_SIZE).default(50),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;
