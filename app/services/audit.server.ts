import {
  recordAudit,
  recordAuditMany,
  type AuditAction,
  type AuditEntity,
  type AuditInput,
} from '~/models/audit.server';
import type { PublicUser } from '~/models/user.server';
import { clientAddress } from '~/lib/rate-limit.server';

/**
 * Who makes a change: the signed-in user, the request's load context (for the client's address)
 * and whether it came through the dashboard or the API. Services take it as their last argument
 * and record the audit entry; a change made without one (the seed, a test) is not audited.
 */
export type Actor = { user: PublicUser; context: unknown; via?: 'page' | 'api' };

type Entry = Omit<AuditInput, 'actor' | 'address' | 'via'>;

/**
 * Records a change in the audit trail for the actor. A failure to record is logged and does not
 * undo the change the user already made.
 */
export async function audit(who: Actor | undefined, entry: Entry) {
  if (!who) return;
  try {
    await recordAudit({
      ...entry,
      actor: { id: who.user.id, username: who.user.username, role: who.user.role },
      address: clientAddress(who.context),
      via: who.via ?? 'page',
    });
  } catch (error) {
    console.error('Could not record an audit entry:', error);
  }
}

/**
 * The audit entry for one record's create, update or delete, identified by the record itself (the
 * version after, else the one before) and by `label`, what staff recognise it by. Pass only what
 * may be shown: never a secret or a hash.
 */
export function auditRecord(
  who: Actor | undefined,
  action: AuditAction,
  entity: AuditEntity,
  change: {
    label: string;
    before?: { id: string; parcelId?: string | null } | null;
    after?: { id: string; parcelId?: string | null } | null;
  },
) {
  const record = change.after ?? change.before;
  if (!record) return Promise.resolve();
  return audit(who, {
    action,
    entity,
    entityId: record.id,
    label: change.label,
    parcelId: record.parcelId ?? undefined,
    before: change.before ?? undefined,
    after: change.after ?? undefined,
  });
}

type AuditedRecord = { id: string; parcelId?: string | null };

/** Creates one record through `create`, which answers it as stored, and audits it. */
export async function auditedCreate<T extends AuditedRecord>(
  who: Actor | undefined,
  entity: AuditEntity,
  label: (record: T) => string,
  create: () => Promise<T>,
): Promise<T> {
  const after = await create();
  await auditRecord(who, 'create', entity, { label: label(after), after });
  return after;
}

/**
 * Creates what answers a new record beside a secret shown once (an API key, a webhook's signing
 * secret) and audits the record alone, which `recordOf` picks out: the secret is never written
 * to the log. Answers what `create` made.
 */
export async function auditedCreateWithSecret<C, T extends AuditedRecord>(
  who: Actor | undefined,
  entity: AuditEntity,
  recordOf: (created: C) => T,
  label: (record: T) => string,
  create: () => Promise<C>,
): Promise<C> {
  const created = await create();
  const after = recordOf(created);
  await auditRecord(who, 'create', entity, { label: label(after), after });
  return created;
}

/**
 * Changes one record and audits the change: `read` finds it as it was, `write` changes it and
 * answers it as it is, or null when there is no such record (then nothing is audited).
 */
export async function auditedUpdate<T extends AuditedRecord, R extends T | null>(
  who: Actor | undefined,
  entity: AuditEntity,
  label: (record: T) => string,
  { read, write }: { read: () => Promise<T | null>; write: () => Promise<R> },
): Promise<R> {
  const before = await read();
  const after = await write();
  if (after) await auditRecord(who, 'update', entity, { label: label(after), before, after });
  return after;
}

/**
 * Deletes one record and audits it: `read` finds it, `remove` deletes it and says whether it
 * did. Answers the record as it was, or null when there was none to delete.
 */
export async function auditedDelete<T extends AuditedRecord>(
  who: Actor | undefined,
  entity: AuditEntity,
  label: (record: T) => string,
  { read, remove }: { read: () => Promise<T | null>; remove: () => Promise<unknown> },
): Promise<T | null> {
  const before = await read();
  if (!before || !(await remove())) return null;
  await auditRecord(who, 'delete', entity, { label: label(before), before });
  return before;
}

/** New parcels, each with its own entry: created (a bulk booking) or imported (a CSV import). */
export function auditNewParcels(
  who: Actor | undefined,
  action: 'create' | 'import',
  parcels: Array<{ id: string; trackingNumber: string }>,
) {
  return auditMany(
    who,
    parcels.map((parcel) => ({
      action,
      entity: 'parcel' as const,
      entityId: parcel.id,
      label: parcel.trackingNumber,
      after: parcel,
    })),
  );
}

/** Records many changes by the same user at once (a CSV import); failures are logged, as above. */
export async function auditMany(who: Actor | undefined, entries: Entry[]) {
  if (!who) return;
  const actor = { id: who.user.id, username: who.user.username, role: who.user.role };
  const address = clientAddress(who.context);
  try {
    await recordAuditMany(
      entries.map((entry) => ({ ...entry, actor, address, via: who.via ?? 'page' })),
    );
  } catch (error) {
    console.error('Could not record the audit entries:', error);
  }
}
