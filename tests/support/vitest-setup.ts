import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, inject, vi } from 'vitest';

// Every test file runs against its own database and data folder, set before any app module loads.
const base = inject('mongoBaseUri');
const uri = new URL(base);
const dbName = `test_${randomBytes(6).toString('hex')}`;
uri.pathname = `/${dbName}`;
process.env.MONGODB_URI = uri.toString();
process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'courier-test-'));
process.env.SESSION_SECRET ??= 'test-session-secret-0123456789abcdef';
process.env.NODE_ENV = 'test';
// A password hash at scrypt's default cost takes a fifth of a second on a busy machine, and the
// suites hash hundreds; a hash's check reads the cost stored with it, so 1024 checks the same.
process.env.PASSWORD_HASH_COST ??= '1024';

// An unexpected console.error usually means a swallowed failure: fail the test that caused it.
let errorSpy: ReturnType<typeof vi.spyOn> | undefined;

beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = errorSpy?.mock.calls ?? [];
  errorSpy?.mockRestore();
  if (calls.length > 0) {
    throw new Error(
      `console.error was called: ${calls.map((c: unknown[]) => c.map(String).join(' ')).join('\n')}`,
    );
  }
});
