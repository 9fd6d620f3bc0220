/**
 * A pure function whose answers are kept by a key of its arguments, up to `size` of them (the
 * oldest forgotten first). For the formatting the tracking page, its API and the e-mails repeat
 * on every request: `Intl`'s formatToParts and the address templates take tens of microseconds a
 * call, and the same zones, minutes, days and towns come back request after request. Only for
 * functions of their arguments alone (no clock, no settings). Safe in the browser.
 */
export function remembered<A extends unknown[], R>(
  fn: (...args: A) => R,
  keyOf: (...args: A) => string,
  size = 2000,
): (...args: A) => R {
  const kept = new Map<string, R>();
  return (...args: A) => {
    const key = keyOf(...args);
    if (kept.has(key)) return kept.get(key) as R;
    const answer = fn(...args);
    if (kept.size >= size) kept.delete(kept.keys().next().value as string);
    kept.set(key, answer);
    return answer;
  };
}

/** An instant's minute, for keys of formats that show no seconds. */
export const minuteOf = (instant: Date) => Math.floor(instant.getTime() / 60_000);
