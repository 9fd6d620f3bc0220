import { describe, expect, it } from 'vitest';
import { safeRedirect } from '~/utils/safe-redirect';

describe('safeRedirect', () => {
  it('keeps paths on this site with their query and fragment', () => {
    expect(safeRedirect('/dashboard/parcels?status=Pending#top')).toBe(
      '/dashboard/parcels?status=Pending#top',
    );
    expect(safeRedirect('/a/../dashboard')).toBe('/dashboard');
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/%2F/x\u0000',
    '/.//evil.example/x',
    '/./\\/evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    'javascript:alert(1)',
    ' /dashboard',
    '',
    null,
    undefined,
  ])('refuses %j', (value) => {
    expect(safeRedirect(value, '/dashboard')).toBe('/dashboard');
  });

  it('never returns a path a browser would read as another host, however it normalises', () => {
    for (const value of ['/.//evil.example/x', '/a/b/../..//evil.example', '/..//evil.example'])
      expect(safeRedirect(value, '/dashboard')).toBe('/dashboard');
    expect(safeRedirect('/./dashboard//parcels')).toBe('/dashboard//parcels');
  });

  it('encodes what a Location header cannot carry instead of failing', () => {
    const target = safeRedirect('/\u3002evil.example', '/dashboard');
    expect(target).toBe('/%E3%80%82evil.example');
    expect(() => new Headers({ Location: target })).not.toThrow();
  });
});
