import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type TestSmtpServer = {
  port: number;
  url: string;
  messages: ParsedMail[];
  /** How many messages were refused so far (with `rejectFirst`). */
  refusals(): number;
  /** Resolves with the next message whose recipient matches. */
  waitForMessage(to: string, timeoutMs?: number): Promise<ParsedMail>;
  stop(): Promise<void>;
};

/**
 * A real SMTP server on 127.0.0.1. `reject: true` refuses every recipient with a 550; given a
 * folder, it refuses a recipient while a file named after the address exists in it (so another
 * process can switch it, one address at a time); `rejectFirst` refuses only the first that many
 * recipients, then accepts.
 * `saveDir` also writes each accepted message there as an .eml file.
 */
export async function startTestSmtpServer(
  options: {
    port?: number;
    reject?: boolean | string;
    rejectFirst?: number;
    saveDir?: string;
  } = {},
): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const waiters: Array<{ to: string; resolve: (m: ParsedMail) => void }> = [];
  let refused = 0;
  const rejecting = (address: string) => {
    if (options.rejectFirst !== undefined && refused < options.rejectFirst) {
      refused += 1;
      return true;
    }
    return typeof options.reject === 'string'
      ? fs.existsSync(path.join(options.reject, address.toLowerCase()))
      : options.reject === true;
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejecting(address.address)) {
        const error = new Error(
          `Mailbox unavailable: ${address.address} is not accepted here`,
        ) as Error & {
          responseCode: number;
        };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const parsed = await simpleParser(raw);
        messages.push(parsed);
        if (options.saveDir) {
          fs.mkdirSync(options.saveDir, { recursive: true });
          fs.writeFileSync(path.join(options.saveDir, `${Date.now()}-${messages.length}.eml`), raw);
        }
        const recipients = [parsed.to]
          .flat()
          .flatMap((a) => a?.value ?? [])
          .map((v) => v.address?.toLowerCase());
        for (const waiter of [...waiters]) {
          if (recipients.includes(waiter.to.toLowerCase())) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(parsed);
          }
        }
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refusals: () => refused,
    waitForMessage(to, timeoutMs = 10_000) {
      const found = messages.find((m) =>
        [m.to]
          .flat()
          .flatMap((a) => a?.value ?? [])
          .some((v) => v.address?.toLowerCase() === to.toLowerCase()),
      );
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`No message to ${to} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
