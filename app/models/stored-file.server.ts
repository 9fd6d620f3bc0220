import mongoose from 'mongoose';
import { isObjectId } from '~/lib/db.server';

/**
 * Uploaded files (proof-of-delivery photos and signatures) in MongoDB GridFS, bucket `files`
 * (collections files.files and files.chunks): every app server sees them and a backup carries
 * them. They are written once, already re-encoded, and only ever read whole or deleted.
 */
const BUCKET_NAME = 'files';

function bucket() {
  const db = mongoose.connection.db;
  if (!db) throw new Error('Not connected to the database');
  return new mongoose.mongo.GridFSBucket(db, { bucketName: BUCKET_NAME });
}

export type StoredFileInfo = {
  filename: string;
  contentType: string;
  metadata?: Record<string, unknown>;
};

/** Stores `data` and returns its id. */
export async function saveFile(data: Buffer, info: StoredFileInfo): Promise<string> {
  const upload = bucket().openUploadStream(info.filename, {
    metadata: { ...info.metadata, contentType: info.contentType },
  });
  await new Promise<void>((resolve, reject) => {
    upload.once('finish', () => resolve());
    upload.once('error', reject);
    upload.end(data);
  });
  return String(upload.id);
}

/** A stored file whole, with its type and time; null when there is none with this id. */
export async function readFile(id: string) {
  if (!isObjectId(id)) return null;
  const objectId = new mongoose.Types.ObjectId(id);
  const [file] = await bucket().find({ _id: objectId }).limit(1).toArray();
  if (!file) return null;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of bucket().openDownloadStream(objectId)) chunks.push(chunk as Buffer);
  } catch (error) {
    // Deleted between the two reads.
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
  return {
    id: String(file._id),
    data: Buffer.concat(chunks),
    contentType: String(file.metadata?.contentType ?? 'application/octet-stream'),
    uploadDate: file.uploadDate,
  };
}

/** Deletes the files with these ids; ids of files already gone are ignored. */
export async function deleteFiles(ids: string[]) {
  for (const id of ids.filter(isObjectId)) {
    try {
      await bucket().delete(new mongoose.Types.ObjectId(id));
    } catch (error) {
      if (!/File not found/i.test((error as Error).message)) throw error;
    }
  }
}

/** How many files are stored (for tests and the backup's report). */
export function countFiles(): Promise<number> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('Not connected to the database');
  return db.collection(`${BUCKET_NAME}.files`).countDocuments();
}
