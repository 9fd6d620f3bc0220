import path from 'node:path';

/**
 * Starts the embedded database engine (embedded-mongo/, TypeScript loaded through tsx) on
 * DATA_DIR/db and points MONGODB_URI at it. Only server.js and the command-line scripts call
 * this, when MONGODB_URI is not set; the app's build never contains the engine.
 */
export async function startEmbeddedDatabase() {
  const { tsImport } = await import('tsx/esm/api');
  const { startEmbeddedMongo } = await tsImport('../embedded-mongo/index.ts', import.meta.url);
  const dir = path.resolve(process.env.DATA_DIR || '.data', 'db');
  let engine;
  try {
    // Unix socket only, mode 0600 in a 0700 directory: no other local user can reach the data.
    engine = await startEmbeddedMongo({ dir, tcp: false });
  } catch (error) {
    throw new Error(`Cannot start the embedded database in ${dir}: ${error.message}`);
  }
  process.env.MONGODB_URI = `${engine.uri}courier`;
  return engine;
}
