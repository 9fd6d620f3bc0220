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
    expect(renderPage(key, 'first', render)).toBe('<script nonce="first"></script><p>page 1</p>');
    expect(renderPage(key, 'second', render)).toBe('<script nonce="second"></script><p>page 1</p>');
    expect(renders).toEqual([NONCE_PLACEHOLDER]);

    // The same address with other data (the parcel moved) is another page.
    expect(renderPage(`${key}2`, 'third', render)).toContain('page 2');
    // Staff pages and form answers are not kept; nor a page without a nonce to put back.
    expect(renderPage(null, 'fourth', render)).toBe(
      '<script nonce="fourth"></script><p>page 3</p>',
    );
    expect(renderPage(key, '', render)).toContain('page 4');
  });
});
