// Imported first by the command-line scripts: without MONGODB_URI they run on the embedded
// database in DATA_DIR, started here before any app module reads the environment.
import { startEmbeddedDatabase } from '../../server/embedded-database.js';

export const embeddedDatabase = process.env.MONGODB_URI ? null : await startEmbeddedDatabase();
