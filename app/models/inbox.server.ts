import type mongoose from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import type { InboxKind, InboxState } from '~/schemas/inbox';
import { inquiryRows } from '~/schemas/public-forms';
import { Inquiry } from './inquiry.server';
import { Subscription } from './subscription.server';
import { findPage, iso } from '~/lib/records.server';

/**
 * The staff inbox over what visitors send: contact messages and quote requests (the inquiries
 * collection, told apart by `kind`) and newsletter subscriptions. Each item can be marked handled
 * (and unhandled again); lists are newest first.
 */
export type InboxItem = {
  id: string;
  kind: InboxKind;
  receivedAt: string;
  name: string;
  email: string;
  /** The subject of a message or request, or where a subscription came from. */
  subject: string;
  handledAt: string | null;
  handledBy: string | null;
};

export type InboxDetail = InboxItem & {
  /** Labelled fields in the order a person reads them. */
  fields: Array<{ label: string; value: string }>;
  message: string;
};

type StoredItem = {
  _id: unknown;
  kind?: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  subject?: string | null;
  message?: string | null;
  plan?: string | null;
  shipmentsPerMonth?: string | null;
  origin?: string | null;
  destination?: string | null;
  source?: string | null;
  emailStatus?: string | null;
  createdAt?: Date | null;
  handledAt?: Date | null;
  handledBy?: string | null;
};

function item(kind: InboxKind, doc: StoredItem): InboxItem {
  return {
    id: String(doc._id),
    kind,
    receivedAt: iso(doc.createdAt) ?? '',
    name: kind === 'newsletter' ? '' : (doc.name ?? ''),
    email: doc.email ?? '',
    subject: kind === 'newsletter' ? doc.source || 'Website' : (doc.subject ?? ''),
    handledAt: iso(doc.handledAt),
    handledBy: doc.handledBy ?? null,
  };
}

function detail(kind: InboxKind, doc: StoredItem): InboxDetail {
  const rows: Array<[string, string | null | undefined]> =
    kind === 'newsletter'
      ? [
          ['Email', doc.email],
          ['Source', doc.source || 'Website'],
        ]
      : inquiryRows(kind, doc);
  if (kind !== 'newsletter') rows.push(['E-mail to support', doc.emailStatus ?? 'pending']);
  return {
    ...item(kind, doc),
    fields: rows.filter(([, v]) => v).map(([label, value]) => ({ label, value: value! })),
    message: kind === 'newsletter' ? '' : (doc.message ?? ''),
  };
}

function model(kind: InboxKind) {
  return (kind === 'newsletter' ? Subscription : Inquiry) as unknown as mongoose.Model<StoredItem>;
}

function baseFilter(kind: InboxKind): Record<string, unknown> {
  return kind === 'newsletter' ? {} : { kind };
}

function stateFilter(state: InboxState): Record<string, unknown> {
  if (state === 'open') return { handledAt: null };
  if (state === 'handled') return { handledAt: { $ne: null } };
  return {};
}

/** A page of one kind, newest first. */
export async function listInbox({
  kind,
  state = 'all',
  page = 1,
  limit = 25,
}: {
  kind: InboxKind;
  state?: InboxState;
  page?: number;
  limit?: number;
}) {
  const filter = { ...baseFilter(kind), ...stateFilter(state) };
  return findPage(
    model(kind),
    filter,
    { sort: { createdAt: -1, _id: -1 }, page, limit, projection: { message: 0, clientAddress: 0 } },
    (doc: StoredItem) => item(kind, doc),
  );
}

/** How many items of each kind are not handled yet. */
export async function openInboxCounts(): Promise<Record<InboxKind, number>> {
  const [contact, quote, newsletter] = await Promise.all(
    (['contact', 'quote', 'newsletter'] as const).map((kind) =>
      model(kind).countDocuments({ ...baseFilter(kind), handledAt: null }),
    ),
  );
  return { contact: contact!, quote: quote!, newsletter: newsletter! };
}

export async function getInboxItem(kind: InboxKind, id: string): Promise<InboxDetail | null> {
  if (!isObjectId(id)) return null;
  const doc = await model(kind)
    .findOne({ _id: id, ...baseFilter(kind) })
    .lean<StoredItem>();
  return doc ? detail(kind, doc) : null;
}

/**
 * Marks an item handled (by `username`, now) or not handled. Answers the item before and after,
 * or null when there is no such item.
 */
export async function setInboxHandled(
  kind: InboxKind,
  id: string,
  handled: boolean,
  username: string,
): Promise<{ before: InboxDetail; after: InboxDetail } | null> {
  if (!isObjectId(id)) return null;
  const update = handled
    ? { $set: { handledAt: new Date(), handledBy: username } }
    : { $unset: { handledAt: 1, handledBy: 1 } };
  const before = await model(kind)
    .findOneAndUpdate({ _id: id, ...baseFilter(kind) }, update, { returnDocument: 'before' })
    .lean<StoredItem>();
  if (!before) return null;
  const after = await model(kind).findById(id).lean<StoredItem>();
  return { before: detail(kind, before), after: detail(kind, after ?? before) };
}

/** Every subscriber, oldest first, for the CSV export. */
export async function* subscribersForExport() {
  const cursor = Subscription.find({}, { email: 1, source: 1, createdAt: 1, handledAt: 1 })
    .sort({ createdAt: 1, _id: 1 })
    .lean()
    .cursor({ batchSize: 500 });
  for await (const doc of cursor) {
    const d = doc as unknown as StoredItem;
    yield {
      email: d.email ?? '',
      source: d.source ?? '',
      subscribedAt: iso(d.createdAt) ?? '',
      handledAt: iso(d.handledAt) ?? '',
    };
  }
}
