import { describe, expect, it } from 'vitest';
import { NONCE_PLACEHOLDER, renderPage } from '~/lib/render-cache.server';

describe('a public page rendered once for what it shows', () => {
  it('renders once per key, each answer with its own nonce; another key, no key or no nonce renders again', () => {
    const renders: string[] = [];
    const render = (nonce: string) => {
      renders.push(nonce);
      return `<script nonce="${nonce}"></script><p>page ${renders.length}</p>`;
    };
    const key = '/track?number=SWX123456789\n{"parcel":1}';
    const first = renderPage(key, 'first', render);
    const second = renderPage(key, 'second', render);
    expect(first.html).toBe('<script nonce="first"></script><p>page 1</p>');
    expect(second.html).toBe('<script nonce="second"></script><p>page 1</p>');
    expect(renders).toEqual([NONCE_PLACEHOLDER]);
    // Its ETag is worked out once, the same whatever the nonce.
    expect(first.etag).toMatch(/^W\/"/);
    expect(second.etag).toBe(first.etag);

    // The same address with other data (the parcel moved) is another page.
    const moved = renderPage(`${key}2`, 'third', render);
    expect(moved.html).toContain('page 2');
    expect(moved.etag).not.toBe(first.etag);
    // Staff pages and form answers are not kept; nor a page without a nonce to put back.
    expect(renderPage(null, 'fourth', render)).toEqual({
      html: '<script nonce="fourth"></script><p>page 3</p>',
    });
    expect(renderPage(key, '', render).html).toContain('page 4');
  });
});
