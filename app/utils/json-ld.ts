/**
 * JSON-LD as the text of a `<script type="application/ld+json">`: JSON in which `<`, `>` and `&`
 * are escaped, so no value can close the element or open a comment in it. Safe in the browser.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}
