import { Schema } from 'mongoose';
import { isDuplicateKey } from '~/lib/db.server';
import { registeredModel } from '~/lib/records.server';

type CounterSchema = { _id: string; seq: number };

const counterSchema = new Schema<CounterSchema>(
  { _id: { type: String, required: true }, seq: { type: Number, default: 0 } },
  { versionKey: false },
);

export const Counter = registeredModel('Counter', counterSchema, 'counters');

/**
 * The next value of a named sequence (1, 2, 3…), from a single atomic update: two callers never
 * get the same number. Two first-ever upserts may race on the new document's _id; the loser retries
 * and then simply increments.
 */
export async function nextSequence(name: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const counter = await Counter.findOneAndUpdate(
        { _id: name },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      if (!counter) throw new Error(`Counter ${name} was not returned`);
      return counter.seq;
    } catch (error) {
      if (!isDuplicateKey(error) || attempt >= 3) throw error;
    }
  }
}
