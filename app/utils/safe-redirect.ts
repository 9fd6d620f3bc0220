const BASE = 'http://same-origin.invalid';

/**
 * A path on this site for `redirectTo`-style input, or `fallback`. The value is resolved the way a
 * browser would (`new URL(value, origin)`), so `//evil.example`, `/\evil.example`, `/\t/evil` and
 * absolute URLs all fail the same-origin test; control characters and backslashes are refused
 * outright, since browsers strip or rewrite them before resolving. What is returned always starts
 * with `/` followed by neither `/` nor `\`.
 */
export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback = '/',
): string {
  if (!to || typeof to !== 'string' || !to.startsWith('/')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Normalising can make a path that a browser reads as another host's: `/.//evil.example`
  // becomes `//evil.example`. A same-site path starts with one slash, followed by neither.
  if (url.pathname.startsWith('//') || url.pathname.startsWith('/\\')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
