import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2626);
export const E2E_DIR = process.env.E2E_DIR ?? path.join(os.tmpdir(), `courier-e2e-${E2E_PORT}`);
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password' };

const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // Three on CI's two cores: a test spends most of its time waiting on the server or the browser
  // (the run used about 40% of the two cores with two workers).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // A test that passes only on a retry is a failing test.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  globalSetup: './tests/e2e/support/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [
    {
      name: 'js',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch, javaScriptEnabled: true },
    },
    {
      // Without JavaScript: one tagged flow per kind of form and per dialog shown as a page, and
      // the screens whose markup differs without it. What needs no browser is a vitest test.
      name: 'no-js',
      grep: /@no-js/,
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunch,
        javaScriptEnabled: false,
      },
    },
  ],
  webServer: {
    command: `rm -rf "${path.join(E2E_DIR, 'data')}" && node server.js`,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      NODE_ENV: 'production',
      // The request log shows only failures beside the browser suite's own output.
      LOG_LEVEL: 'warn',
      PORT: String(E2E_PORT),
      ...(process.env.E2E_WEB_CONCURRENCY
        ? { WEB_CONCURRENCY: process.env.E2E_WEB_CONCURRENCY }
        : {}),
      DATA_DIR: path.join(E2E_DIR, 'data'),
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SESSION_SECRET: 'e2e-session-secret-0123456789abcdef',
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      SMTP_TIMEOUT_MS: '5000',
      // E-mails are queued: the worker looks every 100 ms and retries a refused one quickly.
      JOBS_POLL_MS: '100',
      MAIL_RETRY_DELAYS: '0.2,0.2,0.2',
      PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
      // Card payment offered (no test reaches Stripe): the booking screens are checked.
      STRIPE_SECRET_KEY: 'sk_test_e2eNotAKey0123',
      STRIPE_WEBHOOK_SECRET: 'whsec_e2eNotASecret0123',
      RATE_LIMIT_TRACKING_PER_MINUTE: '100000',
      RATE_LIMIT_SUBSCRIBE_PER_HOUR: '100000',
      // Every spec uses the same admin: its API budget is the whole run's.
      RATE_LIMIT_API_PER_MINUTE: '100000',
      // The cheapest password hash: every sign-in and new user hashes one (production: 16384).
      PASSWORD_HASH_COST: '1024',
      // Every browser test signs in from 127.0.0.1; the lockout itself is covered by the vitest suite.
      LOGIN_MAX_FAILURES: '50',
      // Webhook receivers in the tests run on 127.0.0.1 and fail on purpose: quick retries.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS: '1,1,1',
    },
  },
});
