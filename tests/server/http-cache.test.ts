import { describe, expect, it } from 'vitest';
import { documentResponse, etagFor, matchesIfNoneMatch } from '~/lib/http-cache.server';

const NONCE = 'bm9uY2Utb25lLTEyMzQ1Ng==';
const page = (nonce: string) =>
  `<!DOCTYPE html><html><body><h1>Home</h1><script nonce="${nonce}">loop()</script></body></html>`;

function get(headers: HeadersInit = {}, method = 'GET') {
  return new Request('http://localhost/', { method, headers });
}

function publicHeaders(extra: HeadersInit = {}) {
  const headers = new Headers({ 'Cache-Control': 'public, max-age=300', Vary: 'Cookie' });
  new Headers(extra).forEach((value, key) => headers.append(key, value));
  return headers;
}

describe('document caching', () => {
  it('gives a cacheable page an ETag that does not change with the nonce', async () => {
    const first = documentResponse(get(), 200, publicHeaders(), page(NONCE), NONCE);
    const second = documentResponse(get(), 200, publicHeaders(), page('b3RoZXI='), 'b3RoZXI=');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('etag')).toMatch(/^W\/"/);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await first.text()).toBe(page(NONCE));
  });

  it('answers 304 without a body to a matching If-None-Match, 200 to another', async () => {
    const etag = documentResponse(get(), 200, publicHeaders(), page(NONCE), NONCE).headers.get(
      'etag',
    )!;
    const hit = documentResponse(
      get({ 'If-None-Match': `W/"other", ${etag}` }),
      200,
      publicHeaders(),
      page('bmV3'),
      'bmV3',
    );
    expect(hit.status).toBe(304);
    expect(await hit.text()).toBe('');
    expect(hit.headers.get('etag')).toBe(etag);
    expect(hit.headers.get('cache-control')).toBe('public, max-age=300');

    const changed = documentResponse(
      get({ 'If-None-Match': etag }),
      200,
      publicHeaders(),
      page(NONCE).replace('Home', 'Start'),
      NONCE,
    );
    expect(changed.status).toBe(200);
  });

  it('never stores a page that sets a cookie (a flash message shown once)', () => {
    const response = documentResponse(
      get(),
      200,
      publicHeaders({ 'Set-Cookie': '__flash=; Path=/' }),
      page(NONCE),
      NONCE,
    );
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('never stores the answer to a form post', () => {
    const response = documentResponse(get({}, 'POST'), 400, publicHeaders(), page(NONCE), NONCE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('leaves pages without a policy (staff pages) and error pages without an ETag', () => {
    const staff = documentResponse(get(), 200, new Headers(), page(NONCE), NONCE);
    expect(staff.headers.get('etag')).toBeNull();
    expect(staff.headers.get('cache-control')).toBeNull();
    const missing = documentResponse(get(), 404, publicHeaders(), page(NONCE), NONCE);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('If-None-Match', () => {
  it('compares weakly and understands lists and *', () => {
    const etag = etagFor('body');
    const strong = etag.replace(/^W\//, '');
    expect(matchesIfNoneMatch(get({ 'If-None-Match': strong }), etag)).toBe(true);
    expect(matchesIfNoneMatch(get({ 'If-None-Match': '*' }), etag)).toBe(true);
    expect(matchesIfNoneMatch(get({ 'If-None-Match': `"a", ${etag}` }), etag)).toBe(true);
    expect(matchesIfNoneMatch(get({ 'If-None-Match': '"a"' }), etag)).toBe(false);
    expect(matchesIfNoneMatch(get(), etag)).toBe(false);
  });
});
