/**
 * Loaded into every process under soak (`NODE_OPTIONS=--import …`, which cluster workers inherit)
 * to report its V8 heap, which only the process itself can read. When the soak writes a new number
 * into `SOAK_MEMORY_DIR/request` (looked at every 200 ms), the process runs a full garbage
 * collection and writes `SOAK_MEMORY_DIR/<pid>.json` with that number and process.memoryUsage():
 * the heap in use is then the live heap, not whatever garbage waits for the next collection. A
 * worker thread answers the same way in `<pid>-thread-<threadId>.json`, with its own heap: a
 * thread has a V8 heap of its own, which the process's numbers leave out. Does nothing without
 * SOAK_MEMORY_DIR.
 *
 * The resident size is read once the collection has settled. Under load V8 lets the heap grow to
 * several times what is live before it collects; right after a collection those pages are still
 * mapped, and they are given back over the next second (the sweeper frees them in the
 * background, and a second collection releases what the first emptied). Five samples of one app
 * process under load, 10 s apart, with about 50 MB live each time: read right after one
 * collection, 200 to 306 MB, depending only on how long before the request it had last
 * collected; read after settling, 165 to 183 MB. So: collect, wait, collect again (the heap in
 * use is read then), wait, then read the rest.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, threadId } from 'node:worker_threads';

const dir = process.env.SOAK_MEMORY_DIR;

if (dir) {
  // A context made after this flag is set has `gc`; the process's own flags stay as they were.
  v8.setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc');
  const file = path.join(
    dir,
    isMainThread ? `${process.pid}.json` : `${process.pid}-thread-${threadId}.json`,
  );
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
  let answered = null;
  setInterval(async () => {
    let request;
    try {
      request = fs.readFileSync(path.join(dir, 'request'), 'utf8').trim();
    } catch {
      return; // no request yet, or the soak has ended
    }
    if (request === answered) return;
    answered = request;
    collect();
    await pause(300);
    collect();
    // This isolate's heap: the main thread's, or the worker thread's own.
    const heapUsed = v8.getHeapStatistics().used_heap_size;
    await pause(1000);
    const { rss, external } = process.memoryUsage();
    const heapTotal = v8.getHeapStatistics().total_heap_size;
    // What the heap has committed for new objects (the young generation, which grows under load
    // and is not given back by a collection), apart from the rest.
    const youngCommitted = v8
      .getHeapSpaceStatistics()
      .filter((space) => space.space_name.startsWith('new_'))
      .reduce((sum, space) => sum + space.space_size, 0);
    const report = {
      request,
      pid: process.pid,
      primary: cluster.isPrimary,
      thread: isMainThread ? null : threadId,
      rss,
      heapUsed,
      heapTotal,
      youngCommitted,
      // Buffers and other memory that JavaScript objects hold outside the heap (whole process).
      external,
    };
    try {
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(report));
      fs.renameSync(`${file}.tmp`, file);
    } catch {
      // the soak has ended and removed the directory
    }
  }, 200).unref();
}
