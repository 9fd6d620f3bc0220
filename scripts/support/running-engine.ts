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
 * The engine's lock (embedded-mongo/lock.ts) defines that layout and how a socket is probed;
 * this is the one place outside the engine that reads it.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { OWN_RE, POINTER_NAME, probeSocket, SOCKET_NAME } from '../../embedded-mongo/lock';

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
        .filter((name) => OWN_RE.test(name))
        .map((name) => path.join(where, name))
    : [];
  return [stable, ...own];
}

/**
 * The connection string (ending with `/`; append the database name) of the engine serving the
 * data directory `dbDir`, or null when no engine is running on it.
 */
export async function findRunningEngine(dbDir: string): Promise<string | null> {
  if (process.platform === 'win32') return null;
  for (const file of engineSocketCandidates(dbDir)) {
    if ((await probeSocket(file)) === 'accepted') return `mongodb://${encodeURIComponent(file)}/`;
  }
  return null;
}
