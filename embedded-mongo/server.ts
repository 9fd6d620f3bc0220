import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { runCommand, helloReply, LIMITS, type CommandContext } from './commands';
import type { Engine } from './engine';
import type { Storage } from './storage';
import type { Doc } from './values';
import {
  encodeMsg,
  encodeReply,
  MORE_TO_COME,
  parseMessage,
  ProtocolError,
  type Request,
} from './wire';

const HEADER_SIZE = 16;

export class WireServer {
  private readonly server: Server;
  private socketServer: Server | null = null;
  private socketPath: string | null = null;
  private readonly sockets = new Set<Socket>();
  private nextConnectionId = 1;
  private nextRequestId = 1;

  constructor(
    private readonly engine: Engine,
    private readonly storage: Storage | null,
  ) {
    this.server = createServer((socket) => this.accept(socket));
    this.scheduleTtl();
    engine.onTtlMonitorChange = () => this.scheduleTtl();
  }

  private ttlSweep: NodeJS.Timeout | undefined;

  /** Expired documents of TTL indexes are deleted every `ttlMonitorSleepSecs`, as by MongoDB's TTL monitor. */
  private scheduleTtl(): void {
    clearTimeout(this.ttlSweep);
    this.ttlSweep = setTimeout(() => {
      this.expireTtl();
      this.scheduleTtl();
    }, this.engine.ttlMonitorSleepSecs * 1000);
    this.ttlSweep.unref();
  }

  /** Deletes expired TTL documents and journals the deletions. */
  expireTtl(now = Date.now()): number {
    const removed = this.engine.expireTtl(now);
    const ops = this.engine.takeOps();
    if (ops.length && this.storage) {
      // A failed journal write fails every later write too; nothing more to do here.
      this.storage.append(ops).catch(() => {});
    }
    return removed;
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  /**
   * Also listens on a Unix domain socket (mode 0600), which local clients reach with less work
   * than TCP.
   */
  listenSocket(file: string): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        this.socketServer = server;
        this.socketPath = file;
        try {
          chmodSync(file, 0o600);
          resolve();
        } catch (err) {
          reject(err as Error);
        }
      });
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.ttlSweep);
    this.engine.onTtlMonitorChange = () => {};
    const servers = [this.server, this.socketServer].filter(
      (s): s is Server => s !== null && s.listening,
    );
    const closed = Promise.all(
      servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
    );
    for (const s of this.sockets) s.destroy();
    await closed;
    if (this.socketPath) rmSync(this.socketPath, { force: true });
  }

  /** Serves a client connection (also one accepted by another server, like the data directory's socket). */
  accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const ctx: CommandContext = { connectionId: this.nextConnectionId++ };
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // Requests are answered in order. They run as they arrive; only while a journal write is
    // awaited do later requests queue up behind it.
    const queue: Request[] = [];
    let waiting = false;
    const failed = (): void => {
      socket.destroy();
    };
    const drain = (): void => {
      waiting = false;
      while (queue.length > 0 && !waiting) dispatch(queue.shift()!);
    };
    const dispatch = (request: Request): void => {
      if (waiting) {
        queue.push(request);
        return;
      }
      let journal: Promise<void> | undefined;
      try {
        journal = this.handle(socket, request, ctx);
      } catch {
        failed();
        return;
      }
      if (journal) {
        waiting = true;
        journal.then(drain, failed);
      }
    };

    socket.on('data', (chunk) => {
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= HEADER_SIZE) {
        if (pending[0]!.length < 4) pending = [Buffer.concat(pending)];
        const length = pending[0]!.readInt32LE(0);
        if (length < HEADER_SIZE + 5 || length > LIMITS.maxMessageSizeBytes) {
          socket.destroy();
          return;
        }
        // Join chunks only once the whole message is here; large messages arrive in many chunks.
        if (pendingBytes < length) break;
        const buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
        const message = buf.subarray(0, length);
        const rest = buf.subarray(length);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
        let request: Request;
        try {
          request = parseMessage(message);
        } catch (err) {
          if (!(err instanceof ProtocolError)) throw err;
          socket.destroy();
          return;
        }
        dispatch(request);
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  /** Answers one request; returns a promise only when the reply waits for a journal write. */
  private handle(socket: Socket, request: Request, ctx: CommandContext): Promise<void> | undefined {
    const requestId = this.nextRequestId++;
    if (request.kind === 'query') {
      const query = (request.query.$query as Doc | undefined) ?? request.query;
      const name = Object.keys(query)[0];
      let reply: Doc;
      let failed = false;
      if (
        request.collection.endsWith('.$cmd') &&
        (name === 'ismaster' || name === 'isMaster' || name === 'hello')
      ) {
        reply = helloReply(ctx, name !== 'hello');
      } else {
        reply = {
          $err: 'Unsupported OP_QUERY command',
          code: 352,
          codeName: 'UnsupportedOpQueryCommand',
          ok: 0,
        };
        failed = true;
      }
      if (!socket.destroyed)
        socket.write(encodeReply(requestId, request.header.requestId, reply, failed));
      return undefined;
    }
    const reply = runCommand(this.engine, request.command, ctx);
    const ops = this.engine.takeOps();
    if (ops.length && this.storage) {
      const journaled = this.storage.append(ops);
      // As MongoDB does for { j: false } (and w: 0): acknowledged once applied, journaled in the
      // background with the next group commit; a failed flush fails the writes that follow.
      if (skipsJournalWait(request.command)) {
        journaled.catch(() => undefined);
        this.send(socket, request, requestId, reply);
        return undefined;
      }
      return journaled.then(
        () => this.send(socket, request, requestId, reply),
        (err: unknown) =>
          this.send(socket, request, requestId, {
            ok: 0,
            code: 1,
            codeName: 'InternalError',
            errmsg: `journal write failed: ${(err as Error).message}`,
          }),
      );
    }
    this.send(socket, request, requestId, reply);
    return undefined;
  }

  private send(
    socket: Socket,
    request: Extract<Request, { kind: 'msg' }>,
    requestId: number,
    reply: Doc,
  ): void {
    if (request.flags & MORE_TO_COME) return;
    if (!socket.destroyed) socket.write(encodeMsg(requestId, request.header.requestId, reply));
  }
}

/** A write concern that does not wait for the journal: `{ j: false }` or `{ w: 0 }`. */
function skipsJournalWait(command: Doc): boolean {
  const concern = command.writeConcern as { j?: unknown; w?: unknown } | undefined;
  if (!concern || typeof concern !== 'object') return false;
  return concern.j === false || concern.w === 0;
}
