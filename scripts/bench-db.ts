import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { Schema } from 'mongoose';
import { startEmbeddedMongo } from '../embedded-mongo';

const addressSchema = new Schema(
  { name: String, phone: String, email: String, city: String, street: String, region: String },
  { _id: false },
);
const eventSchema = new Schema({ status: String, note: String, location: String, at: Date });
const parcelSchema = new Schema(
  {
    trackingNumber: { type: String, required: true, unique: true },
    status: { type: String, index: true },
    sender: addressSchema,
    recipient: addressSchema,
    destinations: [String],
    events: [eventSchema],
    weightKg: Number,
    priceCents: Number,
    description: String,
  },
  { timestamps: true },
);

function address(i: number, kind: string) {
  return {
    name: `${kind} Person ${i}`,
    phone: `+233 20 ${String(i).padStart(7, '0')}`,
    email: `${kind.toLowerCase()}${i}@example.com`,
    city: ['Accra', 'Kumasi', 'Tema', 'Takoradi'][i % 4],
    street: `${i % 300} Independence Avenue, Apartment ${i % 50}`,
    region: 'Greater Accra Region',
  };
}

function parcel(i: number) {
  const base = Date.UTC(2026, 0, 1) + i * 60_000;
  return {
    trackingNumber: `SW${String(i).padStart(9, '0')}`,
    status: ['pending', 'in_transit', 'delivered'][i % 3],
    sender: address(i, 'Sender'),
    recipient: address(i + 1, 'Recipient'),
    destinations: ['Accra central hub', 'Kumasi sorting centre', 'Final mile depot'],
    events: ['created', 'picked_up', 'in_transit', 'arrived_at_hub'].map((status, k) => ({
      status,
      note: `Parcel ${status.replace('_', ' ')} — scanned by handheld terminal ${k}`,
      location: ['Accra', 'Tema', 'Kumasi', 'Takoradi'][k],
      at: new Date(base + k * 3_600_000),
    })),
    weightKg: (i % 40) + 0.5,
    priceCents: 1500 + (i % 500),
    description: 'Household goods, fragile, handle with care. '.repeat(4),
  };
}

const cpuRates: Record<string, number> = {};

/** Operations per wall-clock second; also records operations per CPU-second of this process, which a busy machine distorts less. */
async function timed(
  label: string,
  seconds: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<number> {
  // One second unmeasured first, so the figure is the warmed-up (JIT-compiled) rate.
  const warm = performance.now() + 1000;
  let warmed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warm) await op(warmed++);
    }),
  );
  let count = 0;
  const cpu = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await op(count++);
    }),
  );
  const used = process.cpuUsage(cpu);
  cpuRates[label] = count / ((used.user + used.system) / 1e6);
  return count / seconds;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = () => `${Math.round(process.memoryUsage().rss / 1024 / 1024)} MiB`;

async function run(
  n: number,
  dir?: string,
): Promise<{ findOne: number; insert: number; update: number; bulk: number; rss: string }> {
  const engine = await startEmbeddedMongo(dir ? { dir } : {});
  const conn = await mongoose
    .createConnection(engine.uri + 'bench', { maxPoolSize: 20 })
    .asPromise();
  const Parcel = conn.model('Parcel', parcelSchema);
  await Parcel.init();
  const t = performance.now();
  for (let i = 0; i < n; i += 1000) {
    await Parcel.insertMany(
      Array.from({ length: Math.min(1000, n - i) }, (_, k) => parcel(i + k)),
      { lean: true },
    );
  }
  const bulk = n / ((performance.now() - t) / 1000);
  const findOne = await timed(`findOne ${n}${dir ? ' dir' : ''}`, 3, 8, async () => {
    const i = Math.floor(Math.random() * n);
    const doc = await Parcel.findOne({ trackingNumber: `SW${String(i).padStart(9, '0')}` }).lean();
    if (!doc) throw new Error('missing parcel');
  });
  let next = n;
  const insert = await timed(`insert ${n}${dir ? ' dir' : ''}`, 3, 16, () =>
    Parcel.create(parcel(next++)),
  );
  const update = await timed(`update ${n}${dir ? ' dir' : ''}`, 3, 8, async () => {
    const i = Math.floor(Math.random() * n);
    await Parcel.updateOne(
      { trackingNumber: `SW${String(i).padStart(9, '0')}` },
      {
        $push: {
          events: {
            $each: [{ status: 'note', note: 'bench', at: new Date() }],
            $position: 0,
            $slice: 12,
          },
        },
        $set: { status: 'in_transit' },
      },
    );
  });
  const rss = mib();
  await conn.close();
  await engine.stop();
  return { findOne, insert, update, bulk, rss };
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`);
  const results: Record<number, Awaited<ReturnType<typeof run>>> = {};
  for (const n of [10_000, 100_000]) {
    const r = await run(n);
    results[n] = r;
    console.log(
      `in-memory, ${fmt(n)} parcels: findOne by trackingNumber (lean) ${fmt(r.findOne)}/s, ` +
        `insert (create, 16 concurrent) ${fmt(r.insert)}/s, insertMany ${fmt(r.bulk)} docs/s, ` +
        `update ($push+$set) ${fmt(r.update)}/s, RSS ${r.rss}`,
    );
    if (globalThis.gc) globalThis.gc();
  }
  const ratio = results[10_000]!.findOne / results[100_000]!.findOne;
  console.log(`findOne slowdown 100k vs 10k: ${ratio.toFixed(2)}x`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-db-'));
  try {
    const r = await run(10_000, dir);
    console.log(
      `data dir (fsync per group commit), 10,000 parcels: insert (create, 16 concurrent) ${fmt(r.insert)}/s, ` +
        `insertMany ${fmt(r.bulk)} docs/s, update ${fmt(r.update)}/s, findOne ${fmt(r.findOne)}/s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const load = (await import('node:os')).loadavg()[0]!;
  console.log(`operations per CPU-second of this process (load average ${load.toFixed(1)}):`);
  for (const [label, rate] of Object.entries(cpuRates)) console.log(`  ${label}: ${fmt(rate)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
