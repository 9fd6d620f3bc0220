import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listParcels } from '~/models/parcel-reads.server';
import { searchParcelsForTracking } from '~/models/tracking-event.server';
import { connectDb, disconnectDb } from '~/lib/db.server';

beforeAll(async () => {
  await connectDb();
});

afterAll(async () => {
  await disconnectDb();
});

describe('staff search with hostile text', () => {
  it.each(['\u0000', 'a\u0000b', '((((', '.*', '\\', '$where', '\ud800'])(
    'searches for %j literally instead of failing',
    async (search) => {
      const page = await listParcels({ search });
      expect(page.parcels).toEqual([]);
      expect(await searchParcelsForTracking({ search, limit: 10 })).toEqual([]);
    },
  );
});
