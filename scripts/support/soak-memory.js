/**
 * Loaded into every process of the server under soak (`NODE_OPTIONS=--import …`, which cluster
 * workers inherit) to report its V8 heap, which only the process itself can read. When the soak
 * writes a new number into `SOAK_MEMORY_DIR/request` (looked at every 200 ms), the process runs a
 * full garbage collection and writes `SOAK_MEMORY_DIR/<pid>.json` with that number and
 * process.memoryUsage(): the heap in use is then the live heap, not whatever garbage waits for
 * the next collection. A worker thread (the embedded engine's, in the primary) answers the same way
 * in `<pid>-thread-<threadId>.json`, with its own heap: the thread has a V8 heap of its own, which
 * the process's numbers leave out. Does nothing without SOAK_MEMORY_DIR.
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
  let answered = null;
  setInterval(() => {
    let request;
    try {
      request = fs.readFileSync(path.join(dir, 'request'), 'utf8').trim();
    } catch {
      return; // no request yet, or the soak has ended
    }
    if (request === answered) return;
    answered = request;
    collect();
    const { rss, external } = process.memoryUsage();
    // This isolate's heap: the main thread's, or the worker thread's own.
    const { used_heap_size: heapUsed, total_heap_size: heapTotal } = v8.getHeapStatistics();
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
