import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Each file has its own database and data folder, so files run side by side: two at least,
    // since much of a file's time is spent waiting on the engine, a server or a child process.
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/vitest-setup.ts'],
  },
});
