/**
 * The lock on a data directory: the engine's own Unix domain socket, which is also the address
 * the engine hands out.
 *
 * An engine that holds a directory listens on a socket file with a name of its own in it
 * (`mongod-<random>.sock`) and links the stable name `mongod.sock` to that socket. Whether the
 * directory is in use is decided by whether anything answers on such a file, never by what a
 * file says. A listening socket belongs to its process, and the kernel closes it when the
 * process ends, however it ends, so the lock goes with its holder:
 * - Crash, SIGKILL, out-of-memory kill: the socket file stays, but from the moment the process
 *   is gone (a zombie that has not been reaped included, its descriptors are already closed) a
 *   connection to it is refused, and the next start removes it and goes ahead at once.
 * - Containers: a restarted server often gets the same PID as the one before it. No PID is
 *   recorded or compared, so a file left by the previous run cannot block the new one.
 * - Reboots: no process listens on a socket file that outlived the system it was made on,
 *   whichever process now has the PID that made it.
 * A leftover `mongod.lock` from the earlier PID-file lock is ignored and removed.
 *
 * Taking the lock:
 * 1. If any engine socket in the directory answers, the directory is in use: refuse.
 * 2. Listen on a new socket with a name of our own.
 * 3. Look again. If a socket other than ours answers, another engine is starting at the same
 *    time: give ours up, wait a random moment and start over (step 1 refuses if the other one
 *    won). Otherwise the directory is ours: leftover socket files (nothing answered on them) are
 *    removed and `mongod.sock` is linked to our socket.
 * Of two engines that both passed step 3, the one that began listening later looked after the
 * other one was listening and would have seen it answer, so at most one engine holds a
 * directory, also when several start at once on a directory with leftover files. A socket file
 * that did not answer and is removed belongs to an engine that is dead, or that listens only
 * after the directory was taken and so sees its holder answer in step 3.
 *
 * Unix socket paths are limited to 104 bytes (macOS) or 108 (Linux). When the directory's path
 * is too long for that, or its file system cannot hold sockets, the sockets are kept in
 * `/tmp/embedded-mongo-<hash of the directory's real path>` (mode 0700, checked to belong to
 * this user) instead, and the file `mongod.sock.path` in the data directory names the socket.
 * `/tmp` rather than the temporary directory from the environment, so that every process finds
 * the same place whatever its TMPDIR says, and the path stays short.
 *
 * On Windows the lock is a named pipe named after the directory, which the system also closes
 * with its process and which cannot be created twice; it is not handed out as an address.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

export const SOCKET_NAME = 'mongod.sock';
export const POINTER_NAME = 'mongod.sock.path';
const OLD_LOCK = 'mongod.lock';
/** An engine's own socket, which `mongod.sock` links to. */
export const OWN_RE = /^mongod-[0-9a-f]{16}\.sock$/;
const LINK_TMP_RE = /^mongod\.sock\.[0-9a-f]{12}\.tmp$/;
/** Longest socket path that works everywhere: macOS allows 104 bytes with the closing NUL. */
const MAX_SOCKET_PATH = 103;
const SHORT_ROOT = '/tmp';
const ATTEMPTS = 40;
/** How long a socket may take to accept a connection before it counts as answering anyway. */
const PROBE_MS = 2000;

export class DataDirInUseError extends Error {
  readonly code = 'EDATADIRINUSE';
}

export interface DirLock {
  /** The data directory's real path. */
  readonly dir: string;
  /** The socket clients connect to (`mongod.sock`); null on Windows. */
  readonly socketPath: string | null;
  /** Connections to the socket go to `handler`; without one (the default) they are closed. */
  serve(handler: ((socket: Socket) => void) | null): void;
  /** Closes the socket, which releases the directory. */
  release(): Promise<void>;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * What a connection to the socket `path` meets: a listener that accepts it; a refusal (a socket
 * file nobody listens on, or not a socket at all) or no file (removed since); or neither within
 * `PROBE_MS` or another error (EACCES, EAGAIN with a full backlog), which may well be a live engine.
 */
export function probeSocket(path: string): Promise<'accepted' | 'refused' | 'unsure'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('unsure');
    }, PROBE_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(
        ['ECONNREFUSED', 'ENOENT', 'ENOTSOCK'].includes(err.code ?? '') ? 'refused' : 'unsure',
      );
    });
  });
}

/** True when something accepts a connection on `path` (or does not refuse it in time). */
async function answers(path: string): Promise<boolean> {
  return (await probeSocket(path)) !== 'refused';
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
}

/** Engine sockets in `dir` other than `except` that answer. */
async function answering(dir: string, except?: string): Promise<string[]> {
  const names = readdirSync(dir).filter((f) => OWN_RE.test(f) && f !== except);
  const live = await Promise.all(names.map((f) => answers(join(dir, f))));
  return names.filter((_, i) => live[i]).map((f) => join(dir, f));
}

/** Whether the sockets of the data directory `real` fit in it (see shortDir otherwise). */
function fits(real: string): boolean {
  return Buffer.byteLength(join(real, `mongod-${'0'.repeat(16)}.sock`)) <= MAX_SOCKET_PATH;
}

/** The short directory in /tmp for the sockets of the data directory `real`. */
function shortDir(real: string): string {
  const short = join(SHORT_ROOT, `embedded-mongo-${hashOf(real)}`);
  try {
    mkdirSync(short, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(short);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
    throw new Error(
      `the socket directory ${short} for ${real} is not a directory of this user; remove it`,
    );
  if (st.mode & 0o077) chmodSync(short, 0o700);
  return short;
}

function inUse(dir: string, socket: string): DataDirInUseError {
  return new DataDirInUseError(
    `data directory ${dir} is in use by another process (an engine answers on ${socket}); ` +
      'stop that engine first',
  );
}

/** Takes the lock on the data directory `dir` (created with mode 0700 when missing). */
export async function lockDataDir(dir: string): Promise<DirLock> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const real = realpathSync(dir);
  if (process.platform === 'win32') return lockWithPipe(real);
  let where = fits(real) ? real : shortDir(real);
  let handler: ((socket: Socket) => void) | null = null;
  for (let attempt = 1; ; attempt++) {
    const [live] = await answering(where);
    if (live) throw inUse(real, live);
    const name = `mongod-${randomBytes(8).toString('hex')}.sock`;
    const own = join(where, name);
    const server = createServer((socket) => (handler ? handler(socket) : socket.destroy()));
    try {
      await listen(server, own);
    } catch (err) {
      // A file system that cannot hold sockets (some mounts from a container's host): the same
      // place in /tmp as for a long path, which every engine on this directory ends up at too.
      const { code } = err as NodeJS.ErrnoException;
      if (where === real && ['EOPNOTSUPP', 'ENOTSUP', 'EPERM', 'EINVAL'].includes(code ?? '')) {
        where = shortDir(real);
        continue;
      }
      throw err;
    }
    try {
      chmodSync(own, 0o600);
    } catch (err) {
      await close(server);
      throw err;
    }
    const rivals = await answering(where, name);
    if (rivals.length === 0) {
      let socketPath: string;
      try {
        socketPath = claim(real, where, own);
      } catch (err) {
        await close(server);
        throw err;
      }
      return {
        dir: real,
        socketPath,
        serve(next) {
          handler = next;
        },
        async release() {
          handler = null;
          try {
            const a = statSync(join(where, SOCKET_NAME));
            const b = statSync(own);
            if (a.ino === b.ino && a.dev === b.dev) rmSync(join(where, SOCKET_NAME));
          } catch {
            // the stable name is missing or cannot be read: nothing of ours to remove
          }
          await close(server);
          rmSync(own, { force: true });
        },
      };
    }
    await close(server);
    if (attempt >= ATTEMPTS)
      throw new Error(`could not lock data directory ${real}: other engines kept starting on it`);
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 10 * Math.min(attempt, 10)));
  }
}

/**
 * The directory is ours: removes what earlier holders left behind and links `mongod.sock` to our
 * socket. Returns the path clients should use.
 */
function claim(real: string, where: string, own: string): string {
  for (const f of readdirSync(where)) {
    if (join(where, f) === own || !(OWN_RE.test(f) || LINK_TMP_RE.test(f))) continue;
    rmSync(join(where, f), { force: true });
  }
  rmSync(join(real, OLD_LOCK), { force: true });
  let path = join(where, SOCKET_NAME);
  const tmp = join(where, `${SOCKET_NAME}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    linkSync(own, tmp);
    renameSync(tmp, path);
  } catch {
    // A file system without hard links: clients use the engine's own name.
    rmSync(tmp, { force: true });
    path = own;
  }
  if (where === real) rmSync(join(real, POINTER_NAME), { force: true });
  else writeFileSync(join(real, POINTER_NAME), `${path}\n`, { mode: 0o600 });
  return path;
}

async function lockWithPipe(real: string): Promise<DirLock> {
  const pipe = `\\\\.\\pipe\\embedded-mongo-${hashOf(real.toLowerCase())}`;
  const server = createServer((socket) => socket.destroy());
  try {
    await listen(server, pipe);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw inUse(real, pipe);
    throw err;
  }
  rmSync(join(real, OLD_LOCK), { force: true });
  return {
    dir: real,
    socketPath: null,
    serve() {},
    release: () => close(server),
  };
}
