import { Collection, type IndexSpec } from './collection';
import { fail } from './errors';
import { pathValues, type Doc } from './values';

/** A state change as written to the journal; replaying it over any later state is idempotent. */
export type Op =
  | { o: 'ci'; db: string; c: string; opts: Doc }
  | { o: 'dc'; db: string; c: string }
  | { o: 'dd'; db: string }
  | { o: 'p'; db: string; c: string; d: Doc }
  | { o: 'r'; db: string; c: string; id: unknown }
  | { o: 'ix'; db: string; c: string; spec: IndexSpec }
  | { o: 'dx'; db: string; c: string; name: string };

/** The earliest date at a (dotted) field, looking into arrays; undefined when there is none. */
function earliestDate(doc: Doc, field: string): number | undefined {
  let best: number | undefined;
  const visit = (v: unknown): void => {
    if (v instanceof Date) {
      const t = v.getTime();
      if (!Number.isNaN(t) && (best === undefined || t < best)) best = t;
    } else if (Array.isArray(v)) v.forEach(visit);
  };
  pathValues(doc, field).forEach(visit);
  return best;
}

interface Cursor {
  id: number;
  ns: string;
  docs: Doc[];
  pos: number;
  projection: unknown;
  lastUsed: number;
}

export class Engine {
  readonly dbs = new Map<string, Map<string, Collection>>();
  private readonly cursors = new Map<number, Cursor>();
  private pending: Op[] = [];
  /** Seconds between passes of the TTL monitor (MongoDB's `ttlMonitorSleepSecs`, 60 by default). */
  ttlMonitorSleepSecs = 60;
  /** Called when `ttlMonitorSleepSecs` changes, so that the next pass comes at the new interval. */
  onTtlMonitorChange: () => void = () => {};

  constructor(readonly cursorTimeoutMs = 10 * 60 * 1000) {}

  takeOps(): Op[] {
    const ops = this.pending;
    this.pending = [];
    return ops;
  }

  private log(op: Op): void {
    this.pending.push(op);
  }

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  validateName(db: string, name: unknown): string {
    if (
      typeof name !== 'string' ||
      name.length === 0 ||
      name.includes('\0') ||
      name.startsWith('system.') ||
      name.includes('$')
    )
      fail(73, `Invalid collection name: ${String(name)}`);
    if (!db || /[/\\. "$]/.test(db)) fail(73, `Invalid database name: ${db}`);
    return name;
  }

  createCollection(db: string, name: string, opts: Doc = {}): Collection {
    this.validateName(db, name);
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    let coll = colls.get(name);
    if (!coll) {
      coll = new Collection(db, name, opts);
      colls.set(name, coll);
      this.log({ o: 'ci', db, c: name, opts });
    }
    return coll;
  }

  ensureCollection(db: string, name: string): Collection {
    return this.collection(db, name) ?? this.createCollection(db, name);
  }

  dropCollection(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.delete(name)) return false;
    if (colls.size === 0) this.dbs.delete(db);
    this.log({ o: 'dc', db, c: name });
    return true;
  }

  dropDatabase(db: string): void {
    if (this.dbs.delete(db)) this.log({ o: 'dd', db });
  }

  insert(coll: Collection, doc: Doc): void {
    coll.insert(doc);
    this.log({ o: 'p', db: coll.db, c: coll.name, d: doc });
  }

  replace(coll: Collection, oldDoc: Doc, newDoc: Doc): void {
    coll.replace(oldDoc, newDoc);
    this.log({ o: 'p', db: coll.db, c: coll.name, d: newDoc });
  }

  remove(coll: Collection, doc: Doc): void {
    coll.remove(doc);
    this.log({ o: 'r', db: coll.db, c: coll.name, id: doc._id });
  }

  createIndex(coll: Collection, spec: IndexSpec): void {
    coll.addIndex(spec, true);
    this.log({ o: 'ix', db: coll.db, c: coll.name, spec });
  }

  dropIndex(coll: Collection, name: string): void {
    coll.dropIndex(name);
    this.log({ o: 'dx', db: coll.db, c: coll.name, name });
  }

  /**
   * Deletes the documents whose TTL index date has expired, as MongoDB's TTL monitor does: for
   * each single-field index with `expireAfterSeconds`, a document expires once the earliest date
   * at the indexed field (a date or an array holding dates) lies that many seconds in the past.
   * Returns how many documents were deleted; the deletions go to the journal like any other.
   */
  expireTtl(now = Date.now()): number {
    let removed = 0;
    for (const colls of [...this.dbs.values()]) {
      for (const coll of [...colls.values()]) {
        for (const spec of coll.indexSpecs()) {
          if (spec.expireAfterSeconds === undefined || Object.keys(spec.key).length !== 1) continue;
          const seconds = Number(spec.expireAfterSeconds);
          if (!Number.isFinite(seconds)) continue;
          const field = Object.keys(spec.key)[0]!;
          const cutoff = now - seconds * 1000;
          const expired: Doc[] = [];
          for (const doc of coll.docs.values()) {
            const at = earliestDate(doc, field);
            if (at !== undefined && at <= cutoff) expired.push(doc);
          }
          for (const doc of expired) {
            this.remove(coll, doc);
            removed++;
          }
        }
      }
    }
    return removed;
  }

  /** Applies a journal or snapshot record without constraint checks. */
  replay(op: Op): void {
    switch (op.o) {
      case 'ci':
        if (!this.collection(op.db, op.c)) this.createCollection(op.db, op.c, op.opts);
        break;
      case 'dc':
        this.dropCollection(op.db, op.c);
        break;
      case 'dd':
        this.dropDatabase(op.db);
        break;
      case 'p':
        this.ensureCollection(op.db, op.c).put(op.d);
        break;
      case 'r':
        this.collection(op.db, op.c)?.removeById(op.id);
        break;
      case 'ix': {
        const coll = this.ensureCollection(op.db, op.c);
        if (!coll.hasIndex(op.spec.name)) coll.addIndex(op.spec, false);
        break;
      }
      case 'dx': {
        const coll = this.collection(op.db, op.c);
        if (coll?.hasIndex(op.name)) coll.dropIndex(op.name);
        break;
      }
    }
    this.pending = [];
  }

  /** Every record needed to rebuild the current state, for a snapshot. */
  snapshotOps(): Iterable<Op> {
    // Captured now: stored documents are never mutated, so holding references is a consistent snapshot.
    const colls = [...this.dbs.values()].flatMap((m) => [...m.values()]);
    const captured = colls.map((c) => ({
      c,
      docs: [...c.docs.values()],
      specs: c.indexSpecs().slice(1),
    }));
    return (function* (): Generator<Op> {
      for (const { c, docs, specs } of captured) {
        yield { o: 'ci', db: c.db, c: c.name, opts: c.options };
        for (const spec of specs) yield { o: 'ix', db: c.db, c: c.name, spec };
        for (const d of docs) yield { o: 'p', db: c.db, c: c.name, d };
      }
    })();
  }

  openCursor(ns: string, docs: Doc[], pos: number, projection: unknown): number {
    let id = 0;
    while (id === 0 || this.cursors.has(id)) id = Math.floor(Math.random() * 2 ** 52) + 1;
    this.cursors.set(id, { id, ns, docs, pos, projection, lastUsed: Date.now() });
    return id;
  }

  cursor(id: number): Cursor | undefined {
    const c = this.cursors.get(id);
    if (c && Date.now() - c.lastUsed > this.cursorTimeoutMs) {
      this.cursors.delete(id);
      return undefined;
    }
    if (c) c.lastUsed = Date.now();
    return c;
  }

  closeCursor(id: number): boolean {
    return this.cursors.delete(id);
  }

  expireCursors(): void {
    const now = Date.now();
    for (const [id, c] of this.cursors)
      if (now - c.lastUsed > this.cursorTimeoutMs) this.cursors.delete(id);
  }
}
