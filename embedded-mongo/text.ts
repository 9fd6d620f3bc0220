import { computeValue, type Options } from 'mingo/core';
import { compiledArguments, compiledOperators } from './compiled';
import { fail } from './errors';
import {
  evaluateArguments,
  isIntegral,
  notImplemented,
  nullish,
  shown,
  toNumber,
  type Expression,
} from './expression-support';
import { coerceToString } from './expressions';
import { bsonType, compareStrings, isPlainObject, typeName } from './values';

// String and regular-expression operators as MongoDB 7 evaluates them where mingo's differ:
// positions in UTF-8 bytes or code points, literal (not pattern) finds and replacements, ASCII-only
// case folding, MongoDB's codes for arguments of the wrong type, and regular expressions that
// report code point positions and step past empty matches. Values are in mingo's form.

/** $concat's strings joined: null if one is null or missing. */
function concatenated(values: unknown[]): string | null {
  let out = '';
  for (const v of values) {
    if (nullish(v)) return null;
    if (typeof v !== 'string') fail(16702, `$concat only supports strings, not ${typeName(v)}`);
    out += v;
  }
  return out;
}

const $concat: Expression = (obj, expr, options) =>
  concatenated(evaluateArguments('$concat', obj, expr, options, 0, Infinity));

// Compiled (see compiled.ts): every argument evaluated for each document, then joined as above.
compiledOperators.set('$concat', (argument, compile) => {
  const args = compiledArguments(argument, compile, 0, Infinity);
  return args && ((doc, options) => concatenated(args.map((arg) => arg(doc, options))));
});

/** $indexOfBytes and $indexOfCP: the first position of a substring, in bytes or code points. */
function indexOf(name: '$indexOfBytes' | '$indexOfCP'): Expression {
  const [firstCode, secondCode] = name === '$indexOfBytes' ? [40091, 40092] : [40093, 40094];
  return (obj, expr, options) => {
    const args = evaluateArguments(name, obj, expr, options, 2, 4);
    const [s, search] = args;
    if (nullish(s)) return null;
    if (typeof s !== 'string')
      fail(firstCode, `${name} requires a string as the first argument, found: ${typeName(s)}`);
    if (typeof search !== 'string')
      fail(
        secondCode,
        `${name} requires a string as the second argument, found: ${typeName(search)}`,
      );
    const units: ArrayLike<number> | string[] =
      name === '$indexOfBytes' ? Buffer.from(s, 'utf8') : Array.from(s);
    const needle: ArrayLike<number> | string[] =
      name === '$indexOfBytes' ? Buffer.from(search, 'utf8') : Array.from(search);
    const position = (v: unknown, what: string): number => {
      if (!isIntegral(v))
        fail(
          40096,
          `${name} requires an integral ${what}, found a value of type: ${typeName(v)}, with value: ${nullish(v) ? 'null' : shown(v)}`,
        );
      const n = toNumber(v);
      if (n < 0) fail(40097, `${name} requires a nonnegative ${what}, found: ${n}`);
      return n;
    };
    const start = args.length > 2 ? position(args[2], 'starting index') : 0;
    const end =
      args.length > 3 ? Math.min(units.length, position(args[3], 'ending index')) : units.length;
    if (start > units.length || start > end) return -1;
    for (let i = start; i + needle.length <= end; i++) {
      let j = 0;
      while (j < needle.length && units[i + j] === needle[j]) j++;
      if (j === needle.length) return i;
    }
    return -1;
  };
}

/** $replaceOne and $replaceAll: `find` is a literal string, and so is `replacement`. */
function replace(name: '$replaceOne' | '$replaceAll'): Expression {
  return (obj, expr, options) => {
    if (!isPlainObject(expr))
      fail(51751, `${name} requires an object as an argument, found: ${typeName(expr)}`);
    for (const k of Object.keys(expr))
      if (k !== 'input' && k !== 'find' && k !== 'replacement')
        fail(51750, `${name} found an unknown argument: ${k}`);
    for (const [k, code] of [
      ['input', 51749],
      ['find', 51748],
      ['replacement', 51747],
    ] as const)
      if (!(k in expr)) fail(code, `${name} requires '${k}' to be specified`);
    const values = (['input', 'find', 'replacement'] as const).map((k) =>
      computeValue(obj, expr[k], null, options),
    );
    const codes = [51746, 51745, 51744];
    for (let i = 0; i < 3; i++) {
      const v = values[i];
      if (!nullish(v) && typeof v !== 'string')
        fail(
          codes[i]!,
          `${name} requires that '${['input', 'find', 'replacement'][i]}' be a string, found: ${typeName(v)}`,
        );
    }
    if (values.some(nullish)) return null;
    const [input, find, replacement] = values as [string, string, string];
    if (name === '$replaceOne') {
      const at = input.indexOf(find);
      return at < 0 ? input : input.slice(0, at) + replacement + input.slice(at + find.length);
    }
    if (find === '') return replacement + Array.from(input).join(replacement) + replacement;
    return input.split(find).join(replacement);
  };
}

/** ASCII letters only change case in MongoDB's comparisons and conversions. */
const asciiUpper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());

const $strcasecmp: Expression = (obj, expr, options) => {
  const [a, b] = evaluateArguments('$strcasecmp', obj, expr, options, 2);
  const c = compareStrings(
    asciiUpper(coerceToString('$strcasecmp', a)),
    asciiUpper(coerceToString('$strcasecmp', b)),
  );
  return Math.sign(c);
};

// Whitespace as $trim knows it: the ASCII controls and spaces and the Unicode space separators.
const WHITESPACE = new Set([
  0x0, 0x20, 0x9, 0xa, 0xb, 0xc, 0xd, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
]);

function trim(name: '$trim' | '$ltrim' | '$rtrim', left: boolean, right: boolean): Expression {
  return (obj, expr, options) => {
    if (!isPlainObject(expr))
      fail(50696, `${name} only supports an object as an argument, found: ${typeName(expr)}`);
    for (const k of Object.keys(expr))
      if (k !== 'input' && k !== 'chars')
        fail(50694, `${name} found an unrecognized argument: ${k}`);
    if (!('input' in expr)) fail(50695, `${name} requires an 'input' field`);
    const input = computeValue(obj, expr.input, null, options);
    if (nullish(input)) return null;
    if (typeof input !== 'string')
      fail(
        50699,
        `${name} requires its input to be a string, got ${String(input)} (of type ${typeName(input)}) instead.`,
      );
    let trimmed: Set<number> = WHITESPACE;
    if ('chars' in expr) {
      const chars = computeValue(obj, expr.chars, null, options);
      if (nullish(chars)) return null;
      if (typeof chars !== 'string')
        fail(
          50700,
          `${name} requires 'chars' to be a string, got ${String(chars)} (of type ${typeName(chars)}) instead.`,
        );
      trimmed = new Set(Array.from(chars, (c) => c.codePointAt(0)!));
    }
    const points = Array.from(input);
    let i = 0;
    let j = points.length;
    while (left && i < j && trimmed.has(points[i]!.codePointAt(0)!)) i++;
    while (right && j > i && trimmed.has(points[j - 1]!.codePointAt(0)!)) j--;
    return points.slice(i, j).join('');
  };
}

// --- $regexFind, $regexFindAll, $regexMatch

const REGEX_FLAGS = /^[imsux]*$/;

/** The regular expression of a regex operator, or null when the input or regex is null. */
function regexArguments(
  name: string,
  obj: unknown,
  expr: unknown,
  options: Options,
): { input: string; re: RegExp } | null {
  if (!isPlainObject(expr))
    fail(51103, `${name} expects an object of named arguments but found: ${typeName(expr)}`);
  for (const k of Object.keys(expr))
    if (k !== 'input' && k !== 'regex' && k !== 'options')
      fail(31024, `${name} found an unknown field: ${k}`);
  if (!('input' in expr)) fail(31022, `${name} requires 'input' parameter`);
  if (!('regex' in expr)) fail(31023, `${name} requires 'regex' parameter`);
  const input = computeValue(obj, expr.input, null, options);
  const regex = computeValue(obj, expr.regex, null, options);
  const flagsArg = 'options' in expr ? computeValue(obj, expr.options, null, options) : undefined;
  let pattern: string;
  let flags = '';
  if (regex instanceof RegExp) {
    pattern = regex.source;
    flags = regex.flags;
  } else if (bsonType(regex) === 'BSONRegExp') {
    ({ pattern, options: flags } = regex as { pattern: string; options: string });
  } else if (typeof regex === 'string' || nullish(regex)) pattern = (regex as string) ?? '';
  else return fail(51105, `${name} needs 'regex' to be of type string or regex`);
  if (!nullish(flagsArg)) {
    if (typeof flagsArg !== 'string') fail(51106, `${name} needs 'options' to be of type string`);
    if (flags && flagsArg)
      fail(51075, `${name}: found regex option(s) specified in both 'regex' and 'option' fields`);
    flags = flagsArg;
  }
  if (!REGEX_FLAGS.test(flags)) fail(51108, `${name} invalid flag in regex options: ${flags}`);
  if (flags.includes('x')) notImplemented(`${name} with the regex option 'x' (extended)`);
  if (pattern.includes('\0'))
    fail(51109, `${name}: regular expression cannot contain an embedded null byte`);
  if (nullish(input) || nullish(regex)) return null;
  if (typeof input !== 'string') fail(51104, `${name} needs 'input' to be of type string`);
  const jsFlags = [...new Set(flags.replace(/u/g, ''))].join('');
  let re: RegExp;
  try {
    // Code points, as MongoDB matches UTF-8; a pattern Unicode mode refuses is read as written.
    re = new RegExp(pattern, jsFlags + 'gu');
  } catch {
    try {
      re = new RegExp(pattern, jsFlags + 'g');
    } catch {
      return notImplemented(
        `${name} with the pattern /${pattern}/ (a regular expression feature JavaScript does not have)`,
      );
    }
  }
  return { input, re };
}

/** The matches from the start, stepping one code point past an empty match, as MongoDB does. */
function matches(input: string, re: RegExp, all: boolean): unknown[] {
  const out: unknown[] = [];
  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(input);
    if (!m) break;
    out.push({
      match: m[0],
      idx: Array.from(input.slice(0, m.index)).length,
      captures: m.slice(1).map((c) => (c === undefined ? null : c)),
    });
    if (!all) break;
    if (m[0] === '') {
      const cp = input.codePointAt(m.index);
      re.lastIndex = m.index + (cp !== undefined && cp > 0xffff ? 2 : 1);
      if (re.lastIndex > input.length) break;
    }
  }
  return out;
}

const $regexFind: Expression = (obj, expr, options) => {
  const args = regexArguments('$regexFind', obj, expr, options);
  return args ? (matches(args.input, args.re, false)[0] ?? null) : null;
};

const $regexFindAll: Expression = (obj, expr, options) => {
  const args = regexArguments('$regexFindAll', obj, expr, options);
  return args ? matches(args.input, args.re, true) : [];
};

const $regexMatch: Expression = (obj, expr, options) => {
  const args = regexArguments('$regexMatch', obj, expr, options);
  return args ? matches(args.input, args.re, false).length > 0 : false;
};

export const textExpressions: Record<string, Expression> = {
  $concat,
  $indexOfBytes: indexOf('$indexOfBytes'),
  $indexOfCP: indexOf('$indexOfCP'),
  $replaceOne: replace('$replaceOne'),
  $replaceAll: replace('$replaceAll'),
  $strcasecmp,
  $trim: trim('$trim', true, true),
  $ltrim: trim('$ltrim', true, false),
  $rtrim: trim('$rtrim', false, true),
  $regexFind,
  $regexFindAll,
  $regexMatch,
};
