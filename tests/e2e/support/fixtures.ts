import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from '../../../playwright.config';

type WorkerFixtures = {
  /** The admin's signed-in cookies, made once per worker through the sign-in form's action. */
  adminState: Awaited<ReturnType<APIRequestContext['storageState']>>;
  /** A bearer token of the admin's for setting up through the API, once per worker. */
  adminToken: string;
};

type TestFixtures = {
  /** The admin's `Authorization` header, for setting up through the API. */
  admin: { Authorization: string };
};

/**
 * Staff screens' tests start signed in as the admin: the form itself is proven by the sign-in
 * spec, so the others reuse one session per worker instead of signing in (a deliberately slow
 * password hash) in every test.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  adminState: [
    async ({ playwright }, provide, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL!;
      const context = await playwright.request.newContext({ baseURL, storageState: undefined });
      const answer = await context.post('/management/access', {
        form: E2E_ADMIN,
        headers: { origin: baseURL },
        maxRedirects: 0,
      });
      expect(answer.status(), 'signing in once for this worker').toBe(302);
      // The toast the sign-in leaves belongs to the form's own test, not to every page after it.
      const state = await context.storageState();
      await context.dispose();
      await provide({ ...state, cookies: state.cookies.filter((c) => c.name !== '__flash') });
    },
    { scope: 'worker' },
  ],
  adminToken: [
    async ({ playwright }, provide, workerInfo) => {
      const context = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL,
        storageState: undefined,
      });
      const login = await context.post('/api/auth/login', { data: E2E_ADMIN });
      expect(login.status(), 'an API token for this worker').toBe(200);
      const { token } = (await login.json()) as { token: string };
      await context.dispose();
      await provide(token);
    },
    { scope: 'worker' },
  ],
  storageState: async ({ adminState }, provide) => provide(adminState),
  admin: async ({ adminToken }, provide) => provide({ Authorization: `Bearer ${adminToken}` }),
});

export { expect };

/** Without JavaScript the no-js project runs a test too: one flow per kind of form or dialog. */
export const NO_JS = { tag: '@no-js' };

export function javaScriptOn() {
  return test.info().project.use.javaScriptEnabled !== false;
}
