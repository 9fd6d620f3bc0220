import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Schema } from 'mongoose';
import { registeredModel } from '~/lib/records.server';

/** How long an uploaded file waits for its "Import" confirmation. */
export const PENDING_IMPORT_TTL_SECONDS = 60 * 60;

/**
 * A CSV file a staff member uploaded and previewed on the dashboard, held until the same person
 * confirms the import (or for an hour, after which MongoDB's TTL monitor removes it). Keyed by a
 * random id, so the confirmation form carries only that id, never the file; the file is kept
 * gzip'd (a 20 MiB CSV is a few MB), well within a document's 16 MB.
 */
type PendingImportDoc = {
  _id: string;
  userId: string;
  fileName: string;
  rows: number;
  /** What confirming would do: parcels created, parcels updated, rows that change nothing. */
  created: number;
  updated: number;
  unchanged: number;
  preview: unknown[];
  csv: Buffer;
  createdAt: Date;
};

const pendingImportSchema = new Schema<PendingImportDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    fileName: { type: String, default: '' },
    rows: { type: Number, required: true },
    created: { type: Number, default: 0 },
    updated: { type: Number, default: 0 },
    unchanged: { type: Number, default: 0 },
    preview: { type: [Schema.Types.Mixed], default: [] },
    csv: { type: Buffer, required: true },
    createdAt: { type: Date, default: () => new Date(), expires: PENDING_IMPORT_TTL_SECONDS },
  },
  { versionKey: false },
);

export const PendingImport = registeredModel(
  'PendingImport',
  pendingImportSchema,
  'pending_imports',
);

const MAX_STORED_BYTES = 15 * 1024 * 1024;
export const PENDING_IMPORT_ID = /^[a-f\d]{32}$/;

export class PendingImportTooLarge extends Error {}

/** Keeps a validated file for its owner's confirmation; answers its id. */
export async function savePendingImport(
  input: Omit<PendingImportDoc, '_id' | 'csv' | 'createdAt'> & { csv: string },
): Promise<string> {
  const csv = gzipSync(input.csv);
  if (csv.byteLength > MAX_STORED_BYTES) throw new PendingImportTooLarge();
  const id = randomBytes(16).toString('hex');
  await PendingImport.create({ ...input, _id: id, csv });
  return id;
}

/** What the preview shows of a pending import (not the file), when it is this user's and not expired. */
export async function getPendingImport(id: string, userId: string) {
  if (!PENDING_IMPORT_ID.test(id)) return null;
  const doc = await PendingImport.findOne({ _id: id, userId }, { csv: 0 }).lean();
  if (!doc || expired(doc.createdAt)) return null;
  return {
    id: doc._id,
    fileName: doc.fileName ?? '',
    rows: doc.rows,
    created: doc.created ?? 0,
    updated: doc.updated ?? 0,
    unchanged: doc.unchanged ?? 0,
    preview: doc.preview ?? [],
    createdAt: new Date(doc.createdAt).toISOString(),
  };
}

/**
 * Takes a pending import out, once: a second confirmation (a double click, a resent form) finds
 * nothing. Answers the file's text, or null.
 */
export async function takePendingImport(id: string, userId: string) {
  if (!PENDING_IMPORT_ID.test(id)) return null;
  const doc = await PendingImport.findOneAndDelete({ _id: id, userId }).lean();
  if (!doc || expired(doc.createdAt)) return null;
  const csv = Buffer.isBuffer(doc.csv)
    ? doc.csv
    : Buffer.from((doc.csv as unknown as { buffer: Uint8Array }).buffer);
  return {
    fileName: doc.fileName ?? '',
    created: doc.created ?? 0,
    updated: doc.updated ?? 0,
    unchanged: doc.unchanged ?? 0,
    csv: gunzipSync(csv).toString('utf8'),
  };
}

// The TTL monitor runs once a minute; an import is not confirmed a moment past its hour either.
function expired(createdAt: Date) {
  return Date.now() - new Date(createdAt).getTime() > PENDING_IMPORT_TTL_SECONDS * 1000;
}
