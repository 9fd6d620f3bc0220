import { startEmbeddedMongoHere } from './index';
import { describeSalvage, salvageDataDir } from './salvage';

interface Args {
  port?: number;
  host?: string;
  dir?: string;
  salvage?: boolean;
}

function usage(): never {
  process.stderr.write(
    'usage: npm run db -- [--port <port>] [--host <host>] [--dir <path>]\n' +
      '       npm run db -- --dir <path> --salvage\n',
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage();
      return v;
    };
    if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) usage();
      out.port = port;
    } else if (flag === '--host') out.host = value();
    else if (flag === '--dir' || flag === '--dbpath') out.dir = value();
    else if (flag === '--salvage' && inline === undefined) out.salvage = true;
    else if (flag === '--help' || flag === '-h') usage();
    else usage();
  }
  return out;
}

async function main(): Promise<void> {
  const { salvage, ...args } = parseArgs(process.argv.slice(2));
  if (salvage) {
    // Recovers what is intact in a damaged directory, reports it and exits; it does not serve.
    if (!args.dir) usage();
    const report = await salvageDataDir(args.dir);
    process.stdout.write(describeSalvage(report).join('\n') + '\n');
    return;
  }
  if (!args.dir)
    process.stderr.write('embedded-mongo: no --dir given, data is kept in memory only\n');
  // A process of its own: the engine runs on its main thread and is reached over TCP, and
  // through the data directory's socket too.
  const db = await startEmbeddedMongoHere({ ...args, socket: Boolean(args.dir) });
  process.stdout.write(db.tcpUri + '\n');
  if (db.uri !== db.tcpUri) process.stderr.write(`embedded-mongo: also at ${db.uri}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    db.stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`embedded-mongo: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`embedded-mongo: ${err.message}\n`);
  process.exit(1);
});
