/**
 * Finds the embedded engine that is serving a data directory right now (the app's, while it
 * runs), so that a command-line script can talk to it instead of opening the directory itself,
 * which the running engine has locked.
 *
 * A running engine listens on a Unix domain socket in its data directory: `mongod.sock`. When
 * the directory's path is too long for a socket address, the socket lives in a short directory
 * under /tmp and the file `mongod.sock.path` in the data directory names it. On a file system
 * without hard links there is no `mongod.sock`, only the engine's own `mongod-<16 hex>.sock`
 * beside where it would be. What counts is whether something answers on the socket, never that
 * the file exists: a crashed engine leaves its socket file behind.
 *
 * This is the one place that knows that layout; the engine's lock (embedded-mongo/lock.ts)
 * defines it.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';

const SOCKET_NAME = 'mongod.sock';
const POINTER_NAME = 'mongod.sock.path';
const OWN_SOCKET = /^mongod-[0-9a-f]{16}\.sock$/;
const PROBE_MS = 2000;

/** The socket files an engine serving `dbDir` would answer on, best candidate first. */
export function engineSocketCandidates(dbDir: string): string[] {
  if (!existsSync(dbDir)) return [];
  const real = realpathSync(dbDir);
  const pointer = path.join(real, POINTER_NAME);
  const stable = existsSync(pointer)
    ? readFileSync(pointer, 'utf8').trim()
    : path.join(real, SOCKET_NAME);
  const where = path.dirname(stable);
  const own = existsSync(where)
    ? readdirSync(where)
        .filter((name) => OWN_SOCKET.test(name))
        .map((name) => path.join(where, name))
    : [];
  return [stable, ...own];
}

/** True when something accepts a connection on the Unix socket `file`. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(file);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, PROBE_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/**
 * The connection string (ending with `/`; append the database name) of the engine serving the
 * data directory `dbDir`, or null when no engine is running on it.
 */
export async function findRunningEngine(dbDir: string): Promise<string | null> {
  if (process.platform === 'win32') return null;
  for (const file of engineSocketCandidates(dbDir)) {
    if (await answers(file)) return `mongodb://${encodeURIComponent(file)}/`;
  }
  return null;
}
