/**
 * How the app writes CSV cells a spreadsheet might run, and reads them back (the parcel export and
 * import, the subscriber export).
 */

/**
 * What csv-stringify's `escape_formulas` puts a `'` before: a cell a spreadsheet would run as a
 * formula (=, +, -, @, a tab or carriage return, or their full-width forms, first).
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * The export's cell writing, made reversible: a text cell that already begins with `'` gets one
 * more (before csv-stringify escapes formulas), so that a `'` the import finds before a formula
 * character or another `'` is always one the export added (see unescapeCsvCell).
 */
const castString = (value: string) => (value.startsWith("'") ? `'${value}` : value);

/**
 * Undoes the export's escaping of one cell: a leading `'` followed by a formula character or by
 * another `'` is removed. Any other cell, a lone `'` at the start of ordinary text included, is
 * kept as it is, so an export read back gives exactly the values that were written.
 */
export function unescapeCsvCell(value: string): string {
  if (value.length > 1 && value[0] === "'" && (value[1] === "'" || FORMULA_START.test(value[1]!)))
    return value.slice(1);
  return value;
}

/** csv-stringify options for every CSV the app writes: formulas escaped, reversibly. */
export const CSV_ESCAPING = { escape_formulas: true, cast: { string: castString } } as const;
