/**
 * Adds the demo parcels (and, on a database without users, the admin account) to the database the
 * environment points at — the way to get demo data on MONGODB_URI:  npm run seed
 */
import { embeddedDatabase } from './support/database';
import { Parcel } from '../app/models/parcel.server';
import { countUsers } from '../app/models/user.server';
import { connectDb, disconnectDb } from '../app/lib/db.server';
import { createDemoParcels, describeSeed, seedIfEmpty } from '../app/services/seed.server';

async function main() {
  await connectDb();
  const force = process.argv.includes('--force');
  if ((await countUsers()) === 0 && (await Parcel.estimatedDocumentCount()) === 0) {
    const result = await seedIfEmpty({ demoParcels: true });
    console.log(describeSeed(result));
  } else if ((await Parcel.estimatedDocumentCount()) > 0 && !force) {
    console.log(
      'The database already has parcels; nothing was added. Use `npm run seed -- --force` to add the demo parcels anyway.',
    );
  } else {
    const numbers = await createDemoParcels();
    console.log(`Added demo parcels: ${numbers.join(', ')}`);
  }
  await disconnectDb();
  await embeddedDatabase?.stop();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  await disconnectDb().catch(() => {});
  await embeddedDatabase?.stop().catch(() => {});
  process.exit(1);
});
