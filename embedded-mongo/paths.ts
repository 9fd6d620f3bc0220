import { fieldOf, fieldPath, isPlainObject, keyOf, type FieldPath } from './values';

// Paths through documents as MongoDB's matcher follows them, shared by the matcher and the
// joins of $lookup.

/** A field the document does not have (as opposed to one holding null). */
export const MISSING = Symbol('missing');

/**
 * The values at a dotted path as MongoDB's matcher sees them: arrays met on the way are crossed
 * (their documents searched, a numeric part used as an index), and a document that lacks the
 * next field yields MISSING. Leaf arrays are returned whole.
 */
export function leafValues(doc: unknown, { parts, inherited }: FieldPath): unknown[] {
  if (parts.length === 1 && isPlainObject(doc)) {
    const v = inherited ? fieldOf(doc, parts[0]!) : doc[parts[0]!];
    return [v === undefined ? MISSING : v];
  }
  // Most paths cross only documents: follow them without the general walk.
  let at: unknown = doc;
  let i = 0;
  for (; i < parts.length && isPlainObject(at); i++) {
    at = inherited ? fieldOf(at, parts[i]!) : at[parts[i]!];
    if (at === undefined) return [MISSING];
  }
  if (i === parts.length) return [at];
  if (!Array.isArray(at)) return [MISSING];
  const out: unknown[] = [];
  const walk = (v: unknown, i: number): void => {
    if (i === parts.length) {
      out.push(v);
      return;
    }
    const part = parts[i]!;
    if (Array.isArray(v)) {
      if (/^\d+$/.test(part)) {
        const e = v[Number(part)];
        if (e === undefined) out.push(MISSING);
        else walk(e, i + 1);
      }
      for (const e of v) if (isPlainObject(e)) walk(e, i);
      return;
    }
    if (isPlainObject(v)) {
      const next = fieldOf(v, part);
      if (next === undefined) out.push(MISSING);
      else walk(next, i + 1);
      return;
    }
    out.push(MISSING);
  };
  walk(at, i);
  return out;
}

/** A leaf array stands for itself and for each of its elements. */
export function candidates(leaves: unknown[]): unknown[] {
  let expanded: unknown[] | null = null;
  for (let i = 0; i < leaves.length; i++) {
    const v = leaves[i];
    if (Array.isArray(v)) {
      expanded ??= leaves.slice(0, i);
      expanded.push(v, ...v);
    } else if (expanded) expanded.push(v);
  }
  return expanded ?? leaves;
}

/**
 * The keys (see keyOf) under which an equality on `path` finds the document: one for each value
 * there and each element of an array there; a missing field, or one missing in some document of
 * an array crossed on the way, has null's key, as `{ path: null }` matches it.
 */
export function equalityKeys(doc: unknown, path: string): string[] {
  return candidates(leafValues(doc, fieldPath(path))).map((v) =>
    v === MISSING ? keyOf(null) : keyOf(v),
  );
}
