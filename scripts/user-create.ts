/**
 * Creates a staff account on the database the environment points at:
 *
 *   npm run user:create -- --username jane --role staff [--name "Jane Doe"] [--email jane@example.com]
 *
 * The password comes from USER_PASSWORD, or is asked for on the terminal without echo.
 */
import { embeddedDatabase } from './support/database';
import { Writable } from 'node:stream';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createUser, USER_ROLES, type PublicUser } from '../app/models/user.server';
import { connectDb, disconnectDb } from '../app/lib/db.server';

export const MIN_PASSWORD_LENGTH = 8;

export const USAGE =
  'Usage: npm run user:create -- --username <name> --role admin|staff|viewer [--name "Full Name"] [--email address]\n' +
  `The password is read from USER_PASSWORD or asked for (at least ${MIN_PASSWORD_LENGTH} characters).`;

export class UserCreateError extends Error {}

const UserCreateSchema = z.object({
  username: z
    .string({ error: '--username is required' })
    .trim()
    .regex(
      /^[a-zA-Z0-9._-]{3,40}$/,
      'The username must be 3-40 letters, digits, dots, dashes or underscores',
    ),
  role: z.enum(USER_ROLES, { error: `--role must be one of: ${USER_ROLES.join(', ')}` }),
  name: z.string().trim().max(100, 'The name is too long').optional(),
  email: z.email('--email must be an e-mail address').optional(),
  password: z
    .string({ error: 'A password is required' })
    .min(MIN_PASSWORD_LENGTH, `The password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(200, 'The password is too long'),
});
export type UserCreateInput = {
  username?: string;
  role?: string;
  name?: string;
  email?: string;
  password?: string;
};

/** Reads the command-line options (without the password). */
export function parseUserCreateArgs(argv: string[]) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        role: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    return values;
  } catch (error) {
    throw new UserCreateError(`${(error as Error).message}\n${USAGE}`);
  }
}

function validate<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new UserCreateError(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

/** Validates the input and creates the user; clear errors for bad input and taken usernames. */
export async function createUserFromInput(input: UserCreateInput): Promise<PublicUser> {
  const { username, role, name, email, password } = validate(UserCreateSchema, input);
  await connectDb();
  try {
    return await createUser({ username, role, name, email, password });
  } catch (error) {
    if ((error as { code?: number }).code === 11000) {
      throw new UserCreateError(
        `A user named "${username.toLowerCase()}" already exists (usernames ignore case).`,
      );
    }
    throw error;
  }
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, callback) {
      if (!muted) process.stdout.write(chunk, encoding);
      callback();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    process.stdout.write(question);
    muted = true;
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.USER_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new UserCreateError('Set USER_PASSWORD, or run this in a terminal to type the password.');
  }
  const password = await promptHidden('Password: ');
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UserCreateError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const again = await promptHidden('Repeat the password: ');
  if (again !== password) throw new UserCreateError('The passwords do not match.');
  return password;
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  try {
    const args = parseUserCreateArgs(argv);
    if (args.help) {
      console.log(USAGE);
      return 0;
    }
    if (!args.username || !args.role) throw new UserCreateError(USAGE);
    // Check the options before asking for a password.
    validate(UserCreateSchema.omit({ password: true }), args);
    const password = await readPassword();
    const user = await createUserFromInput({ ...args, password });
    console.log(`Created ${user.role} "${user.username}"${user.name ? ` (${user.name})` : ''}.`);
    return 0;
  } catch (error) {
    console.error(
      error instanceof UserCreateError
        ? error.message
        : `Could not create the user: ${(error as Error).message}`,
    );
    return 1;
  } finally {
    await disconnectDb().catch(() => {});
    await embeddedDatabase?.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then((code) => process.exit(code));
}
