import { Schema, type InferSchemaType } from 'mongoose';
import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_NAMES } from '~/schemas/audit';
import { findPage, recordIds, registeredModel } from '~/lib/records.server';

export const AUDIT_ENTITIES = AUDIT_ENTITY_NAMES;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
export const AUDIT_ACTIONS = AUDIT_ACTION_NAMES;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const changeSchema = new Schema(
  { field: String, before: Schema.Types.Mixed, after: Schema.Types.Mixed },
  { _id: false },
);

/**
 * The audit trail: who changed what, when, from which address, with each changed field before and
 * after. Entries are only ever inserted; nothing in the app updates or deletes them.
 */
const auditSchema = new Schema(
  {
    at: { type: Date, required: true, default: () => new Date() },
    actor: {
      type: new Schema({ id: String, username: String, role: String }, { _id: false }),
      default: () => ({}),
    },
    address: { type: String, default: '' },
    via: { type: String, enum: ['page', 'api'], default: 'page' },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    entity: { type: String, enum: AUDIT_ENTITIES, required: true },
    entityId: { type: String, required: true },
    /** What a person recognises the record by: a tracking number, a username. */
    label: { type: String, default: '' },
    /** The parcel an event, notification or receipt belongs to, so its History shows them. */
    parcelId: { type: String },
    changes: { type: [changeSchema], default: [] },
  },
  { versionKey: false },
);
auditSchema.index({ entity: 1, entityId: 1, at: -1 });
auditSchema.index({ parcelId: 1, at: -1 });
auditSchema.index({ at: -1 });

type AuditDoc = InferSchemaType<typeof auditSchema>;
export const AuditEntry = registeredModel('AuditEntry', auditSchema);

type Plain = Record<string, unknown>;
/** A field's value as stored: JSON data. */
export type AuditValue =
  string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };
const IGNORED = new Set(['id', '_id', 'createdAt', 'updatedAt', 'events', '__v', 'passwordHash']);
/** Worked out from the fields beside them, never stored: their change is the other field's. */
const DERIVED = new Set(['recipient.phoneE164', 'recipient.phoneProblem']);

/** Leaf fields by dotted path; arrays count as one value. */
function flatten(value: unknown, prefix = '', out: Plain = {}): Plain {
  if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value as Plain)) {
      if (!prefix && IGNORED.has(key)) continue;
      flatten(inner, prefix ? `${prefix}.${key}` : key, out);
    }
  } else if (prefix && !DERIVED.has(prefix)) {
    out[prefix] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** The fields that differ between two versions of a record (either may be null: create, delete). */
export function changedFields(before: unknown, after: unknown) {
  const a = flatten(before ?? {});
  const b = flatten(after ?? {});
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return fields
    .filter((field) => JSON.stringify(a[field] ?? null) !== JSON.stringify(b[field] ?? null))
    .map((field) => ({ field, before: a[field] ?? null, after: b[field] ?? null }));
}

export type AuditInput = {
  actor: { id: string; username: string; role: string };
  address: string;
  via: 'page' | 'api';
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  label?: string;
  parcelId?: string;
  before?: unknown;
  after?: unknown;
};

function auditDocument(input: AuditInput) {
  return {
    ...(input.parcelId ? { parcelId: input.parcelId } : {}),
    actor: input.actor,
    address: input.address,
    via: input.via,
    action: input.action,
    entity: input.entity,
    entityId: input.entityId,
    label: input.label ?? '',
    changes: changedFields(input.before, input.after),
  };
}

export async function recordAudit(input: AuditInput): Promise<void> {
  await AuditEntry.create(auditDocument(input));
}

/** Many entries in one write (a CSV import records one per parcel), all stamped with one time. */
export async function recordAuditMany(inputs: AuditInput[]): Promise<void> {
  if (!inputs.length) return;
  const at = new Date();
  // Straight to the driver: the entries are plain data, and casting thousands of them (each with
  // a change per field) through mongoose's subdocuments would take seconds.
  await AuditEntry.collection.insertMany(
    inputs.map((input) => ({ ...auditDocument(input), at })),
    { ordered: false },
  );
}

export type AuditFilter = {
  entity?: AuditEntity;
  entityId?: string;
  /** Everything about one parcel: the parcel and its events, notifications and receipts. */
  parcelId?: string;
  actor?: string;
  action?: AuditAction;
  page?: number;
  limit?: number;
};

function serialize(doc: AuditDoc & { _id: unknown }) {
  return {
    ...recordIds(doc._id),
    at: new Date(doc.at).toISOString(),
    actor: {
      id: doc.actor?.id ?? '',
      username: doc.actor?.username ?? '',
      role: doc.actor?.role ?? '',
    },
    address: doc.address ?? '',
    via: doc.via ?? 'page',
    action: doc.action,
    entity: doc.entity,
    entityId: doc.entityId,
    label: doc.label ?? '',
    parcelId: doc.parcelId ?? null,
    changes: (doc.changes ?? []).map((c) => ({
      field: c.field ?? '',
      before: (c.before ?? null) as AuditValue,
      after: (c.after ?? null) as AuditValue,
    })),
  };
}
export type AuditEntryView = ReturnType<typeof serialize>;

/** Newest first, with the list's pagination. */
export async function listAudit(filter: AuditFilter) {
  const { page = 1, limit = 50 } = filter;
  const query: Record<string, unknown> = {};
  if (filter.entity) query.entity = filter.entity;
  if (filter.entityId) query.entityId = filter.entityId;
  if (filter.parcelId)
    query.$or = [{ entity: 'parcel', entityId: filter.parcelId }, { parcelId: filter.parcelId }];
  if (filter.actor) query['actor.username'] = filter.actor.trim().toLowerCase();
  if (filter.action) query.action = filter.action;
  const { items, pagination } = await findPage(
    AuditEntry,
    query,
    { sort: { at: -1, _id: -1 }, page, limit },
    serialize,
  );
  return { entries: items, pagination };
}
