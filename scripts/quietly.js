/**
 * Runs a command and shows its output only when it fails:
 *   node scripts/quietly.js remix build
 * `npm start` builds this way, so that the first thing a fresh start prints is the server's own
 * (the staff login and the demo tracking numbers), not the build's notices (Remix's progress,
 * Tailwind's experimental flags, Vite's deprecation of its CJS API). `npm run build` shows them.
 * A failure replays everything the command wrote, each chunk to the stream it came on, and exits
 * with the command's status.
 */
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('Usage: node scripts/quietly.js <command> [arguments…]');
  process.exit(2);
}

/** @type {Array<[NodeJS.WriteStream, Buffer]>} */
const written = [];
const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'] });
child.stdout.on('data', (chunk) => written.push([process.stdout, chunk]));
child.stderr.on('data', (chunk) => written.push([process.stderr, chunk]));
child.on('error', (error) => {
  console.error(`Cannot run ${command}: ${error.message}`);
  process.exit(1);
});
child.on('close', (code, signal) => {
  if (code === 0) return;
  for (const [stream, chunk] of written) stream.write(chunk);
  if (signal) console.error(`${command} stopped (${signal})`);
  process.exitCode = code ?? 1;
});
