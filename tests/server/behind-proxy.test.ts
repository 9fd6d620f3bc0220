import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer, type RealServer } from '../support/real-server';

/**
 * The production build behind one load balancer (TRUST_PROXY=1), as README advises: the proxy
 * appends the address it was reached from to `X-Forwarded-For` and says the scheme in
 * `X-Forwarded-Proto`. Whatever a client writes in front of that is not its address.
 */

const LIMIT = 5;
let server: RealServer;

beforeAll(async () => {
  server = await startRealServer({
    env: { TRUST_PROXY: '1', RATE_LIMIT_TRACKING_PER_MINUTE: String(LIMIT) },
  });
});

afterAll(async () => {
  await server?.close();
});

/** A request as the load balancer passes it on: the client's own header, then its address. */
function throughProxy(
  pathname: string,
  client: { address: string; forwardedFor?: string },
  init: RequestInit = {},
) {
  const forwardedFor = [client.forwardedFor, client.address].filter(Boolean).join(', ');
  return server.request(pathname, {
    ...init,
    headers: { ...init.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
  });
}

describe('behind one proxy', () => {
  it('counts tracking lookups per address the proxy saw: a forged first hop never resets the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const forged = `198.51.100.${i + 1}`;
      const res = await throughProxy('/api/tracking/track/SWX000000001', {
        address: '203.0.113.50',
        forwardedFor: forged,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LIMIT).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);
    // Another address the proxy saw has a budget of its own.
    const other = await throughProxy('/api/tracking/track/SWX000000001', {
      address: '203.0.113.51',
    });
    expect(other.status).not.toBe(429);
    expect(other.headers.get('RateLimit-Remaining')).toBe(String(LIMIT - 1));
  });

  it('takes https from the proxy: cookies are Secure and HSTS is sent', async () => {
    const res = await throughProxy(
      '/management/access',
      { address: '203.0.113.60' },
      {
        method: 'POST',
        headers: { origin: `https://${new URL(server.base).host}` },
        body: new URLSearchParams(server.admin),
      },
    );
    expect(res.status).toBe(302);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__session='));
    expect(session).toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });
});
