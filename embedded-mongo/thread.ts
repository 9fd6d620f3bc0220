import { parentPort, workerData } from 'node:worker_threads';
import { startEmbeddedMongoHere, type EmbeddedMongoOptions } from './index';

// The engine's own thread (see startEmbeddedMongo): starts it, reports its address, and stops
// it when asked, after the journal is flushed.
try {
  const db = await startEmbeddedMongoHere(workerData as EmbeddedMongoOptions);
  parentPort!.postMessage({ started: { uri: db.uri, tcpUri: db.tcpUri, port: db.port } });
  parentPort!.on('message', async (message) => {
    if (message !== 'stop') return;
    await db.stop();
    process.exit(0);
  });
} catch (error) {
  const { message, code } = error as NodeJS.ErrnoException;
  parentPort!.postMessage({ failed: { message, code } });
}
