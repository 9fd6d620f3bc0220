import mongoose, { Schema, Types, type Connection, type Model } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, uniqueDbName, type Target } from './helpers';

const addressSchema = new Schema(
  { name: String, phone: String, city: String, street: String },
  { _id: false },
);
const eventSchema = new Schema({
  status: String,
  note: String,
  at: { type: Date, default: Date.now },
});

interface ParcelDoc {
  _id: Types.ObjectId;
  trackingNumber: string;
  status: string;
  sender: { name: string; phone?: string; city?: string };
  recipient: { name: string; phone?: string; city?: string };
  destinations: string[];
  events: Array<{ _id: Types.ObjectId; status: string; note?: string; at: Date }>;
  weightKg: number;
  createdAt: Date;
}

const parcelSchema = new Schema<ParcelDoc>(
  {
    trackingNumber: { type: String, required: true, unique: true },
    status: { type: String, index: true },
    sender: addressSchema,
    recipient: addressSchema,
    destinations: [String],
    events: [eventSchema],
    weightKg: Number,
  },
  { timestamps: true },
);

const counterSchema = new Schema<{ _id: string; seq: number }>(
  { _id: String, seq: Number },
  { versionKey: false },
);

interface BasketDoc {
  _id: Types.ObjectId;
  key: string;
  items: Array<{ sku: string; qty: number }>;
  tags: string[];
}

const basketSchema = new Schema<BasketDoc>({
  key: String,
  items: [new Schema({ sku: String, qty: Number }, { _id: false })],
  tags: [String],
});

let target: Target;
let Basket: Model<BasketDoc>;
let conn: Connection;
let Parcel: Model<ParcelDoc>;
let Counter: Model<{ _id: string; seq: number }>;

function parcel(n: number, status = 'pending') {
  return {
    trackingNumber: `SW${String(n).padStart(6, '0')}`,
    status,
    sender: { name: `Sender ${n}`, phone: '555-0100', city: 'Accra' },
    recipient: {
      name: n % 2 ? `Ama Mensah ${n}` : `Kofi Boateng ${n}`,
      city: n % 3 ? 'Kumasi' : 'Tema',
    },
    destinations: ['Accra hub', 'Kumasi hub'],
    events: [
      { status: 'created', note: 'label printed', at: new Date(Date.UTC(2026, 0, 1, 0, n)) },
    ],
    weightKg: n,
  };
}

beforeAll(async () => {
  target = await startTarget();
  conn = await mongoose.createConnection(target.uri + uniqueDbName('parity_mongoose')).asPromise();
  Parcel = conn.model<ParcelDoc>('Parcel', parcelSchema);
  Counter = conn.model<{ _id: string; seq: number }>('Counter', counterSchema);
  Basket = conn.model<BasketDoc>('Basket', basketSchema);
  await Parcel.init();
  await Basket.init();
  await Counter.init();
});

afterAll(async () => {
  await conn?.dropDatabase().catch(() => {});
  await conn?.close();
  await target?.stop();
});

describe('mongoose parity', () => {
  it('creates documents with embedded arrays and round-trips Dates and ObjectIds', async () => {
    const created = await Parcel.create(parcel(1));
    expect(created._id).toBeInstanceOf(Types.ObjectId);
    expect(created.events[0]!._id).toBeInstanceOf(Types.ObjectId);
    const found = await Parcel.findById(created._id).lean();
    expect(found?.trackingNumber).toBe('SW000001');
    expect(found?._id.equals(created._id)).toBe(true);
    expect(found?.events[0]!.at).toBeInstanceOf(Date);
    expect(found?.events[0]!.at.getTime()).toBe(Date.UTC(2026, 0, 1, 0, 1));
    expect(found?.createdAt).toBeInstanceOf(Date);
    expect(found?.sender.city).toBe('Accra');
    expect(found?.destinations).toEqual(['Accra hub', 'Kumasi hub']);
  });

  it('finds with $or of case-insensitive regexes, a status filter, sort, skip and limit', async () => {
    await Parcel.insertMany(
      [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => parcel(n, n % 4 === 0 ? 'delivered' : 'pending')),
    );
    const term = 'ama';
    const filter = {
      status: 'pending',
      $or: [
        { trackingNumber: new RegExp(term, 'i') },
        { 'recipient.name': { $regex: term, $options: 'i' } },
      ],
    };
    const all = await Parcel.find(filter).sort({ weightKg: -1 }).lean();
    expect(all.map((p) => p.weightKg)).toEqual([9, 7, 5, 3, 1]);
    const page = await Parcel.find(filter).sort({ weightKg: -1 }).skip(1).limit(2).lean();
    expect(page.map((p) => p.weightKg)).toEqual([7, 5]);
    expect(await Parcel.countDocuments(filter)).toBe(5);
    expect(await Parcel.countDocuments({})).toBe(10);
    const byDate = await Parcel.find({}).sort({ 'events.0.at': 1 }).limit(3).lean();
    expect(byDate.map((p) => p.weightKg)).toEqual([1, 2, 3]);
    const byName = await Parcel.find({ weightKg: { $lte: 4 } })
      .sort({ 'recipient.name': 1 })
      .lean();
    expect(byName.map((p) => p.recipient.name)).toEqual([
      'Ama Mensah 1',
      'Ama Mensah 3',
      'Kofi Boateng 2',
      'Kofi Boateng 4',
    ]);
  });

  it('rejects a malformed id with a CastError and keeps working', async () => {
    await expect(Parcel.findById('not-an-id')).rejects.toMatchObject({ name: 'CastError' });
    expect(await Parcel.countDocuments()).toBe(10);
  });

  it('pushes an event to the front and sets fields in findOneAndUpdate', async () => {
    const updated = await Parcel.findOneAndUpdate(
      { trackingNumber: 'SW000002' },
      {
        $push: { events: { $each: [{ status: 'in_transit', note: 'left hub' }], $position: 0 } },
        $set: { status: 'in_transit' },
      },
      { new: true },
    ).lean();
    expect(updated?.status).toBe('in_transit');
    expect(updated?.events.map((e) => e.status)).toEqual(['in_transit', 'created']);
    expect(updated?.events[0]!._id).toBeInstanceOf(Types.ObjectId);
  });

  it('updates one embedded element by its _id with positional $ and with arrayFilters', async () => {
    const p = await Parcel.findOne({ trackingNumber: 'SW000002' }).lean();
    const [first, second] = p!.events;
    await Parcel.updateOne(
      { _id: p!._id, 'events._id': second!._id },
      { $set: { 'events.$.note': 'positional' } },
    );
    let after = await Parcel.findById(p!._id).lean();
    expect(after!.events[1]!.note).toBe('positional');
    expect(after!.events[0]!.note).toBe('left hub');

    await Parcel.updateOne(
      { _id: p!._id },
      { $set: { 'events.$[e].note': 'filtered' } },
      { arrayFilters: [{ 'e._id': first!._id }] },
    );
    after = await Parcel.findById(p!._id).lean();
    expect(after!.events[0]!.note).toBe('filtered');
    expect(after!.events[1]!.note).toBe('positional');

    const byEvent = await Parcel.findOne({ 'events._id': second!._id }).lean();
    expect(byEvent?._id.equals(p!._id)).toBe(true);
    const viaIn = await Parcel.find({ _id: { $in: [p!._id, new Types.ObjectId()] } }).lean();
    expect(viaIn).toHaveLength(1);

    await Parcel.updateOne({ _id: p!._id }, { $pull: { events: { _id: first!._id } } });
    after = await Parcel.findById(p!._id).lean();
    expect(after!.events.map((e) => e.note)).toEqual(['positional']);
  });

  it('increments a counter with upsert (receipt numbers)', async () => {
    const a = await Counter.findOneAndUpdate(
      { _id: 'receipt-2026' },
      { $inc: { seq: 1 } },
      { upsert: true, new: true },
    ).lean();
    const b = await Counter.findOneAndUpdate(
      { _id: 'receipt-2026' },
      { $inc: { seq: 1 } },
      { upsert: true, new: true },
    ).lean();
    expect(a).toEqual({ _id: 'receipt-2026', seq: 1 });
    expect(b).toEqual({ _id: 'receipt-2026', seq: 2 });
  });

  it('aggregates with $match, $group, $sum and $sort', async () => {
    const rows = await Parcel.aggregate<{ _id: string; count: number; weight: number }>([
      { $match: { weightKg: { $gte: 1 } } },
      { $group: { _id: '$status', count: { $sum: 1 }, weight: { $sum: '$weightKg' } } },
      { $sort: { count: -1, _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'pending', count: 7, weight: 41 },
      { _id: 'delivered', count: 2, weight: 12 },
      { _id: 'in_transit', count: 1, weight: 2 },
    ]);
  });

  it('reports unique violations on insert and update', async () => {
    const err = await Parcel.create(parcel(1)).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 11000,
      keyPattern: { trackingNumber: 1 },
      keyValue: { trackingNumber: 'SW000001' },
    });
    expect(String((err as Error).message)).toContain('E11000 duplicate key error collection');
    expect(String((err as Error).message)).toContain(
      'index: trackingNumber_1 dup key: { trackingNumber: "SW000001" }',
    );

    const upd = await Parcel.updateOne(
      { trackingNumber: 'SW000003' },
      { $set: { trackingNumber: 'SW000004' } },
    ).catch((e: unknown) => e);
    expect(upd).toMatchObject({ code: 11000, keyValue: { trackingNumber: 'SW000004' } });
    const fam = await Parcel.findOneAndUpdate(
      { trackingNumber: 'SW000003' },
      { $set: { trackingNumber: 'SW000004' } },
    ).catch((e: unknown) => e);
    expect(fam).toMatchObject({
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: { trackingNumber: 1 },
    });
    expect((await Parcel.findOne({ trackingNumber: 'SW000003' }).lean())?.weightKg).toBe(3);
  });

  it('applies $setOnInsert only on insert and builds upserts from filter equalities', async () => {
    await Parcel.updateOne(
      { trackingNumber: 'SW900000', 'sender.name': 'Upserted' },
      { $set: { status: 'pending' }, $setOnInsert: { weightKg: 42 } },
      { upsert: true },
    );
    let doc = await Parcel.findOne({ trackingNumber: 'SW900000' }).lean();
    expect(doc).toMatchObject({
      trackingNumber: 'SW900000',
      sender: { name: 'Upserted' },
      status: 'pending',
      weightKg: 42,
    });
    expect(doc!._id).toBeInstanceOf(Types.ObjectId);
    await Parcel.updateOne(
      { trackingNumber: 'SW900000' },
      { $set: { status: 'delivered' }, $setOnInsert: { weightKg: 1 } },
      { upsert: true },
    );
    doc = await Parcel.findOne({ trackingNumber: 'SW900000' }).lean();
    expect(doc).toMatchObject({ status: 'delivered', weightKg: 42 });
  });

  it('answers distinct and deleteMany', async () => {
    const statuses = await Parcel.distinct('status');
    expect([...statuses].sort()).toEqual(['delivered', 'in_transit', 'pending']);
    const cities = await Parcel.distinct('recipient.city', { status: 'pending' });
    expect([...cities].sort()).toEqual(['Kumasi', 'Tema']);
    const res = await Parcel.deleteMany({ status: 'delivered' });
    expect(res.deletedCount).toBe(3);
    expect(await Parcel.countDocuments({ status: 'delivered' })).toBe(0);
  });

  it('lists the indexes after init and syncIndexes', async () => {
    await Parcel.syncIndexes();
    const indexes = await Parcel.listIndexes();
    const byName = Object.fromEntries(indexes.map((i) => [i.name, i]));
    expect(byName._id_?.key).toEqual({ _id: 1 });
    expect(byName.trackingNumber_1).toMatchObject({ key: { trackingNumber: 1 }, unique: true });
    expect(byName.status_1).toMatchObject({ key: { status: 1 } });
  });

  it('answers exists() and select(_id) with the _id alone', async () => {
    const found = await Parcel.exists({ trackingNumber: 'SW000001' });
    expect(found).not.toBeNull();
    expect(Object.keys(found!)).toEqual(['_id']);
    expect(found!._id).toBeInstanceOf(Types.ObjectId);
    expect(await Parcel.exists({ trackingNumber: 'nope' })).toBeNull();
    const ids = await Parcel.find({ status: 'pending' }).select('_id').lean();
    expect(ids.length).toBeGreaterThan(0);
    for (const doc of ids) expect(Object.keys(doc)).toEqual(['_id']);
    const some = await Parcel.findOne({ trackingNumber: 'SW000001' })
      .select({ events: { $slice: 1 }, trackingNumber: 1 })
      .lean();
    expect(Object.keys(some!).sort()).toEqual(['_id', 'events', 'trackingNumber']);
  });

  it('pulls subdocuments without _id and upserts with $pull', async () => {
    const basket = await Basket.create({
      key: 'b1',
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 2 },
        { sku: 'c', qty: 3 },
      ],
      tags: ['x', 'y'],
    });
    (basket.items as unknown as Types.DocumentArray<{ sku: string; qty: number }>).pull(
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 2 },
    );
    await basket.save();
    let saved = await Basket.findById(basket._id).lean();
    expect(saved!.items).toEqual([{ sku: 'c', qty: 3 }]);
    await Basket.updateOne(
      { _id: basket._id },
      { $pull: { items: { $or: [{ sku: 'c' }, { qty: { $gt: 5 } }] } } },
    );
    saved = await Basket.findById(basket._id).lean();
    expect(saved!.items).toEqual([]);
    await Basket.updateOne(
      { key: 'b2' },
      { $pull: { tags: 'x' }, $addToSet: { items: { sku: 'd', qty: 1 } } },
      { upsert: true },
    );
    const upserted = await Basket.findOne({ key: 'b2' }).lean();
    expect(upserted).toMatchObject({ key: 'b2', items: [{ sku: 'd', qty: 1 }] });
    expect(upserted!.tags ?? []).toEqual([]);
  });

  it('keeps own __proto__ keys and renames fields into names objects inherit', async () => {
    const Mixed = conn.model(
      'Mixed',
      new Schema({ hello: String, path1: Schema.Types.Mixed }, { strict: false }),
    );
    const doc = await Mixed.create({ hello: 'world', path1: {} });
    const res = await Mixed.findOneAndUpdate(
      { _id: doc._id },
      { $set: { path1: JSON.parse('{"__proto__": "abcd"}') } },
      { returnDocument: 'after', cloneUpdate: false },
    ).lean<{ path1: Record<string, unknown> }>();
    expect(Object.hasOwn(res!.path1, '__proto__')).toBe(true);
    expect(res!.path1.__proto__).toBe('abcd');
    await Mixed.findByIdAndUpdate(doc._id, { $rename: { hello: 'constructor.polluted' } });
    const other = await Mixed.create({ hello: 'again' });
    await Mixed.findByIdAndUpdate(other._id, { $rename: { hello: '__proto__.polluted' } });
    expect(await Mixed.countDocuments({ polluted: 'world' })).toBe(0);
    expect(await Mixed.countDocuments({ 'constructor.polluted': 'world' })).toBe(1);
    expect(await Mixed.countDocuments({ '__proto__.polluted': 'again' })).toBe(1);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });
});
