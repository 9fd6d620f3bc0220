import mongoose, {
  type InferSchemaType,
  type Model,
  type QueryFilter,
  type Schema,
} from 'mongoose';
import { isObjectId } from './db.server';

/**
 * What every model does alike, written once: registering its mongoose model, answering a page of
 * a list, finding one record by an id from a URL, and the id and date fields of the JSON it
 * answers with. Each model still reads and writes only its own collection: it hands its model in.
 */

/** The collection's model, registered once per process: a rebuild in development imports again. */
export function registeredModel<S extends Schema>(
  name: string,
  schema: S,
  collection?: string,
): Model<InferSchemaType<S>> {
  return (
    (mongoose.models[name] as Model<InferSchemaType<S>> | undefined) ??
    (mongoose.model(name, schema, collection) as unknown as Model<InferSchemaType<S>>)
  );
}

/** The fields of a structured postal address, each a trimmed string ('' when not given). */
export const addressFields = {
  address: { type: String, default: '', trim: true },
  city: { type: String, default: '', trim: true },
  region: { type: String, default: '', trim: true },
  postalCode: { type: String, default: '', trim: true },
  country: { type: String, default: '', trim: true },
} as const;

/** `id` and `_id`, the same string, as every record the app answers with carries them. */
export function recordIds(_id: unknown): { id: string; _id: string } {
  const id = String(_id);
  return { id, _id: id };
}

/** A stored time as ISO text, or null when there is none. */
export const iso = (date: Date | string | null | undefined): string | null =>
  date ? new Date(date).toISOString() : null;

/** The fields a change gives: one left undefined keeps what is stored. */
export function givenFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * Changes only the fields `input` gives (one left undefined keeps what is stored; nothing is
 * written when none is given): the record as it then is, or null when the id names none.
 */
export async function updateGivenFields<D, L, T>(
  model: Model<D>,
  id: string,
  input: object,
  serialize: (doc: L) => T,
): Promise<T | null> {
  if (!isObjectId(id)) return null;
  const set = givenFields(input);
  const doc = Object.keys(set).length
    ? await model.findByIdAndUpdate(id, { $set: set }, { returnDocument: 'after' }).lean<L>()
    : await model.findById(id).lean<L>();
  return doc ? serialize(doc) : null;
}

/** The records one account owns (the company's own when `accountId` is null), newest first. */
export async function listOwned<D, L, T>(
  model: Model<D>,
  accountId: string | null,
  serialize: (doc: L) => T,
): Promise<T[]> {
  const docs = await model
    .find({ accountId } as QueryFilter<D>)
    .sort({ createdAt: -1, _id: -1 })
    .lean<L[]>();
  return docs.map(serialize);
}

/** Where a list is: every list answer carries it. */
export type Pagination = {
  totalItems: number;
  currentPage: number;
  totalPages: number;
  limit: number;
};

/**
 * One page of what `filter` finds, in `sort` order, `limit` to a page from page 1, each as
 * `serialize` makes it, with the pagination of all it finds. (A sync's page: findChanges in
 * changes.server.ts.)
 */
export async function findPage<D, L, T>(
  model: Model<D>,
  filter: QueryFilter<D>,
  options: {
    sort: Record<string, 1 | -1>;
    page: number;
    limit: number;
    projection?: object;
  },
  serialize: (doc: L) => T,
): Promise<{ items: T[]; pagination: Pagination }> {
  const { page, limit } = options;
  const [totalItems, docs] = await Promise.all([
    model.countDocuments(filter),
    model
      .find(filter, options.projection)
      .sort(options.sort)
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<L[]>(),
  ]);
  return {
    items: docs.map(serialize),
    pagination: { totalItems, currentPage: page, totalPages: Math.ceil(totalItems / limit), limit },
  };
}

/** A record by an id from outside, as its model answers it: null when the id names none. */
export async function serializedById<L, T>(
  id: string,
  find: (id: string) => PromiseLike<L | null>,
  serialize: (doc: L) => T,
): Promise<T | null> {
  if (!isObjectId(id)) return null;
  const doc = await find(id);
  return doc ? serialize(doc) : null;
}

/**
 * The record as `serializedById` gives it, and its version: the change number it was last written
 * by, which an If-Match names and the write then requires.
 */
export async function versionedById<L extends { changeSeq?: number | null }, T>(
  id: string,
  find: (id: string) => PromiseLike<L | null>,
  serialize: (doc: L) => T,
): Promise<{ record: T; version: number } | null> {
  if (!isObjectId(id)) return null;
  const doc = await find(id);
  return doc ? { record: serialize(doc), version: doc.changeSeq ?? 0 } : null;
}

/**
 * A model's reads and writes by id, written once for its model and the shape it answers with:
 * `byId` (serializedById), `ownedBy` (listOwned) and `updateGiven` (updateGivenFields).
 */
export function recordsOf<L, T, D = unknown>(model: Model<D>, serialize: (doc: L) => T) {
  return {
    byId: (id: string): Promise<T | null> =>
      serializedById(id, (id) => model.findById(id).lean<L>(), serialize),
    ownedBy: (accountId: string | null): Promise<T[]> => listOwned(model, accountId, serialize),
    updateGiven: (id: string, input: object): Promise<T | null> =>
      updateGivenFields(model, id, input, serialize),
  };
}
