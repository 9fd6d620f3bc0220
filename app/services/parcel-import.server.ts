import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { changedFields } from '~/models/audit.server';
import {
  generateTrackingNumber,
  parcelsByTrackingNumber,
  storedTrackingNumbers,
} from '~/models/parcel-tracking-numbers.server';
import { importedParcelDocument, insertImportedParcels } from '~/models/parcel-writes.server';
import { serializeParcel, type LeanParcel, type SerializedParcel } from '~/models/parcel.server';
import {
  PARCEL_IMPORT_MAX_ERRORS,
  PARCEL_IMPORT_MAX_ROWS,
  PARCEL_IMPORT_PREVIEW_COLUMNS,
  type ParcelImportChange,
  type ParcelImportPreviewRow,
} from '~/schemas/constants';
import {
  destinationFields,
  ParcelImportRowSchema,
  type ParcelImportRow,
  type ParcelUpdateInput,
} from '~/schemas/parcel';
import type { z } from '~/schemas/zod';
import { hasValidCheckDigit } from '~/utils/tracking-number';
import { auditNewParcels, type Actor } from './audit.server';
import { planDayBeforeEmailsOf } from './day-before-emails.server';
import { CSV_ESCAPING } from '~/lib/csv.server';
import { isDuplicateKey } from '~/lib/db.server';
import { PARCEL_CSV_COLUMNS, unescapeCsvCell } from './parcel-csv.server';
import { updateParcel } from './parcels.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Parcels from CSV: the columns of the export (PARCEL_CSV_COLUMNS, named by the header row, in any
 * order), each row validated by the create schema's own fields (ParcelImportRowSchema), and then
 * all rows written or none.
 *
 * Rows are numbered as a spreadsheet numbers them: the header is row 1, the first parcel row 2,
 * and a cell holding a line break does not start a new row. Blank rows are skipped but counted.
 *
 * A row without a tracking number gets a new one. A row with the number of a stored parcel
 * updates that parcel, as its edit form would (updateParcel): the columns the file has, an empty
 * text cell clearing the field and an empty number being 0 as in the form, while an empty status,
 * service, priority, estimated delivery or destinations cell (or `[]`) leaves it as it is. Cost,
 * creation and delivery time are not what an edit changes: on such a row they must be empty or as
 * stored.
 * A row with any other number creates a parcel under it, as imports always have (an export read
 * into an empty database gives the same parcels, older numbers without a check digit included);
 * the preview says "New" for it. A number twice in the file is an error. For new parcels,
 * status, cost, estimated and actual delivery and creation time are taken as given (defaults:
 * Pending, the creation cost, four days from now, none, now). Tracking events are not in the CSV
 * and are not imported.
 */
export type ImportColumn = (typeof PARCEL_CSV_COLUMNS)[number];
export type ImportError = { row: number; field: string | null; message: string };

const PREVIEW_COLUMNS = PARCEL_IMPORT_PREVIEW_COLUMNS;
type PreviewRow = ParcelImportPreviewRow;

export type ImportCheck = {
  /** Parcel rows in the file (blank rows not counted). */
  rows: number;
  errors: ImportError[];
  /** True when there were more errors than PARCEL_IMPORT_MAX_ERRORS and the rest were left out. */
  truncated: boolean;
  /** The first rows, as the file has them. */
  preview: PreviewRow[];
  /**
   * The validated rows, in file order (empty when there are errors); once checked against the
   * stored parcels (checkParcelCsv), only those that create one.
   */
  parcels: Array<{ row: number; parcel: ParcelImportRow; cells: Cells }>;
  /** readParcelCsv's rows that passed, even when others did not. */
  valid?: Array<{ row: number; parcel: ParcelImportRow; cells: Cells }>;
  /** The rows that change a stored parcel, with the changes its edit would make. */
  updates: Array<{ row: number; id: string; trackingNumber: string; changes: ParcelUpdateInput }>;
  /** Rows of stored parcels that change nothing. */
  unchanged: number;
};

/** A row's cells by column: absent when the file has no such column. */
type Cells = Partial<Record<ImportColumn, string>>;

/** Rows of the preview table. */
export const PREVIEW_ROWS = 20;

/**
 * What a parcel CSV may hold and how much of it is read: the columns it may name (the export's
 * for the staff's import; the portal's bulk booking takes fewer), those it must, the most parcel
 * rows, the preview's rows and columns, and how the messages name the columns and what is done.
 */
export type ParcelCsvLayout = {
  columns: readonly string[];
  required: readonly string[];
  /** How the messages name the columns allowed. */
  columnsNote: string;
  maxRows: number;
  previewRows: number;
  previewColumns: readonly string[];
  /** What is done with the rows, for the message about too many ("imported"). */
  done: string;
};

export const IMPORT_LAYOUT: ParcelCsvLayout = {
  columns: PARCEL_CSV_COLUMNS,
  required: ['recipientName', 'recipientAddress'],
  columnsNote: `those of the export (${PARCEL_CSV_COLUMNS.join(', ')})`,
  maxRows: PARCEL_IMPORT_MAX_ROWS,
  previewRows: PREVIEW_ROWS,
  previewColumns: PREVIEW_COLUMNS,
  done: 'imported',
};
const CONTACT_FIELDS = [
  'name',
  'email',
  'phone',
  'address',
  'city',
  'region',
  'postalCode',
  'country',
  'timeZone',
] as const;
/** The recipient's fields: a contact's, and the language written to them. */
const RECIPIENT_FIELDS = [...CONTACT_FIELDS, 'language'] as const;
const fieldsOf = (prefix: 'sender' | 'recipient') =>
  prefix === 'recipient' ? RECIPIENT_FIELDS : CONTACT_FIELDS;
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A template: the header row and one example parcel. */
export function parcelImportTemplate(): string {
  const example: Partial<Record<ImportColumn, string>> = {
    serviceType: 'Express',
    priority: 'High',
    weight: '2.5',
    length: '30',
    width: '20',
    height: '10',
    estimatedDelivery: '2030-01-15',
    senderName: 'Acme Supplies',
    senderEmail: 'orders@acme.example',
    recipientName: 'Jane Doe',
    recipientEmail: 'jane@example.com',
    recipientAddress: '12 Main St, Springfield',
    destinations: JSON.stringify([
      {
        name: 'Jane Doe',
        address: '12 Main St',
        city: 'Springfield',
        country: 'USA',
        postalCode: '62701',
      },
    ]),
  };
  return parcelCsvTemplate(PARCEL_CSV_COLUMNS, example);
}

/** A CSV of the columns given: the header row and one example row. */
export function parcelCsvTemplate(
  columns: readonly string[],
  example: Partial<Record<string, string>>,
): string {
  return stringify([columns.map((c) => example[c] ?? '')], {
    header: true,
    columns: [...columns],
    ...CSV_ESCAPING,
  });
}

class ErrorList {
  readonly items: ImportError[] = [];
  truncated = false;
  add(row: number, field: string | null, message: string) {
    if (this.items.length >= PARCEL_IMPORT_MAX_ERRORS) this.truncated = true;
    else this.items.push({ row, field, message });
  }
  get count() {
    return this.items.length;
  }
}

/** The column a schema issue is about, and its message (a destination's says which stop). */
function issueField(issue: z.core.$ZodIssue): { field: string | null; message: string } {
  const [head, second, third] = issue.path.map(String);
  if (!head) return { field: null, message: issue.message };
  if ((head === 'sender' || head === 'recipient') && second)
    return { field: `${head}${capital(second)}`, message: issue.message };
  if (head === 'dimensions' && second) return { field: second, message: issue.message };
  if (head === 'destinations' && second !== undefined) {
    const stop = Number(second) + 1;
    return {
      field: 'destinations',
      message: `Destination ${stop}${third ? ` ${third}` : ''}: ${issue.message}`,
    };
  }
  return { field: head, message: issue.message };
}

/** The schema's input for one row: empty cells are "not given", numbers are read strictly. */
function rowInput(cells: Record<string, string>) {
  const cell = (c: ImportColumn | 'reference') => cells[c] ?? '';
  const given = (c: ImportColumn | 'reference') => (cell(c).trim() === '' ? undefined : cell(c));
  const number = (c: ImportColumn) => {
    const value = cell(c).trim();
    if (value === '') return undefined;
    // Anything that is not plainly a number goes to the schema as text, which it refuses.
    return NUMBER.test(value) ? Number(value) : value;
  };
  const contact = (prefix: 'sender' | 'recipient') =>
    Object.fromEntries(
      fieldsOf(prefix).map((f) => [f, cell(`${prefix}${capital(f)}` as ImportColumn)]),
    );
  return {
    trackingNumber: given('trackingNumber'),
    status: given('status'),
    serviceType: given('serviceType'),
    priority: given('priority'),
    weight: number('weight'),
    dimensions: { length: number('length'), width: number('width'), height: number('height') },
    cost: number('cost'),
    estimatedDelivery: given('estimatedDelivery'),
    actualDelivery: given('actualDelivery'),
    createdAt: given('createdAt'),
    reference: given('reference'),
    sender: contact('sender'),
    recipient: contact('recipient'),
  };
}

/**
 * Reads and validates a CSV file without touching the database (tracking numbers already stored
 * are checked by checkParcelCsv). Everything wrong is reported, row by row. `valid` keeps the rows
 * that passed even when others did not (the bulk booking prices them beside the others' errors).
 */
export function readParcelCsv(text: string, layout: ParcelCsvLayout = IMPORT_LAYOUT): ImportCheck {
  const errors = new ErrorList();
  const known = new Set<string>(layout.columns);
  const result: ImportCheck = {
    rows: 0,
    errors: [],
    truncated: false,
    preview: [],
    parcels: [],
    updates: [],
    unchanged: 0,
  };
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    const e = error as { message?: string; records?: number };
    const message = (e.message ?? 'The file is not valid CSV').replace(/ at line \d+.*$/s, '');
    errors.add((e.records ?? 0) + 1, null, `Not valid CSV: ${message}`);
    return { ...result, errors: errors.items };
  }
  const [header = [], ...body] = records;
  const columns = header.map((name) => name.trim());

  if (!columns.some(Boolean)) {
    errors.add(1, null, `The first row must name the columns: ${layout.columns.join(', ')}`);
    return { ...result, errors: errors.items };
  }
  const seen = new Set<string>();
  columns.forEach((name, i) => {
    if (!name) errors.add(1, null, `Column ${i + 1} has no name`);
    else if (!known.has(name))
      errors.add(1, name, `Unknown column "${name}": the columns are ${layout.columnsNote}`);
    else if (seen.has(name)) errors.add(1, name, `The column "${name}" is named twice`);
    seen.add(name);
  });
  for (const name of layout.required)
    if (!seen.has(name)) errors.add(1, name, `The column "${name}" is missing`);
  if (errors.count) return { ...result, errors: errors.items };

  // Rows of nothing but empty cells (a spreadsheet's trailing rows) are skipped.
  const rows = body
    .map((cells, i) => ({ row: i + 2, cells }))
    .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
  result.rows = rows.length;
  if (rows.length > layout.maxRows) {
    errors.add(
      1,
      null,
      `The file has ${rows.length} parcel rows; at most ${layout.maxRows} can be ${layout.done} at once`,
    );
    return { ...result, errors: errors.items };
  }

  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of rows) {
    const values: Record<string, string> = {};
    columns.forEach((name, i) => (values[name] = unescapeCsvCell(cells[i] ?? '')));
    if (result.preview.length < layout.previewRows)
      result.preview.push({
        row,
        ...(Object.fromEntries(layout.previewColumns.map((c) => [c, values[c] ?? ''])) as Record<
          (typeof PREVIEW_COLUMNS)[number],
          string
        >),
      });
    const before = errors.count;
    if (cells.length > columns.length)
      errors.add(
        row,
        null,
        `This row has ${cells.length} cells; the header names ${columns.length}`,
      );

    const input: Record<string, unknown> = rowInput(values);
    const destinations = (values.destinations ?? '').trim();
    if (destinations) {
      try {
        input.destinations = JSON.parse(destinations);
      } catch {
        errors.add(
          row,
          'destinations',
          'Must be a JSON list of destinations, as the export writes it: [{"name", "address", "city", "country", "postalCode"}]',
        );
      }
    }
    const parsed = ParcelImportRowSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { field, message } = issueField(issue);
        errors.add(row, field, message);
      }
    }
    if (errors.count > before || !parsed.success) continue;

    const number = parsed.data.trackingNumber;
    if (number) {
      const first = firstRowOf.get(number);
      if (first !== undefined) {
        errors.add(row, 'trackingNumber', `Tracking number ${number} is also on row ${first}`);
        continue;
      }
      firstRowOf.set(number, row);
    }
    result.parcels.push({ row, parcel: parsed.data, cells: values as Cells });
  }
  result.valid = result.parcels;
  if (errors.count || errors.truncated) result.parcels = [];
  return { ...result, errors: errors.items, truncated: errors.truncated };
}

/** What an import compares of a parcel: the fields its edit form changes, as the audit records them. */
function editable(parcel: SerializedParcel) {
  return {
    sender: parcel.sender,
    recipient: parcel.recipient,
    weight: parcel.weight,
    dimensions: parcel.dimensions,
    serviceType: parcel.serviceType,
    status: parcel.status,
    priority: parcel.priority,
    estimatedDelivery: parcel.estimatedDelivery,
    destinations: parcel.destinations.map(destinationFields),
  };
}

/**
 * The update a row makes to its stored parcel (only the fields that change), and the changes as
 * the audit will record them; null when the row asks for what an edit cannot do (errors added).
 */
function planUpdate(
  stored: SerializedParcel,
  { row, parcel, cells }: ImportCheck['parcels'][number],
  errors: ErrorList,
): { changes: ParcelUpdateInput; fields: ParcelImportChange[] } | null {
  const has = (column: ImportColumn) => cells[column] !== undefined;
  const filled = (column: ImportColumn) => (cells[column] ?? '').trim() !== '';
  const before = errors.count;
  const fixed = (column: ImportColumn, same: boolean, what: string) => {
    if (filled(column) && !same)
      errors.add(
        row,
        column,
        `${what} of parcel ${stored.trackingNumber} cannot be changed by an import: leave the cell as exported or empty`,
      );
  };
  const time = (value: Date | undefined) => value?.toISOString() ?? null;
  fixed('cost', parcel.cost === stored.cost, 'The cost');
  fixed('createdAt', time(parcel.createdAt) === stored.createdAt, 'The creation time');
  fixed(
    'actualDelivery',
    time(parcel.actualDelivery) === stored.actualDelivery,
    'The delivery time (it follows the status)',
  );
  if (errors.count > before) return null;

  const contact = (prefix: 'sender' | 'recipient') => {
    const given = fieldsOf(prefix).filter((f) => has(`${prefix}${capital(f)}` as ImportColumn));
    if (!given.length) return undefined;
    const values = parcel[prefix] as Record<string, string>;
    return Object.fromEntries(
      given.map((f) => [f, f === 'email' ? values[f]!.toLowerCase() : values[f]]),
    );
  };
  const dimensions = (['length', 'width', 'height'] as const).filter(has);
  const changes: ParcelUpdateInput = {
    sender: contact('sender'),
    recipient: contact('recipient'),
    weight: has('weight') ? parcel.weight : undefined,
    dimensions: dimensions.length
      ? Object.fromEntries(dimensions.map((d) => [d, parcel.dimensions[d]]))
      : undefined,
    status: filled('status') ? parcel.status : undefined,
    serviceType: filled('serviceType') ? parcel.serviceType : undefined,
    priority: filled('priority') ? parcel.priority : undefined,
    estimatedDelivery: filled('estimatedDelivery') ? parcel.estimatedDelivery : undefined,
    // `[]` is what the export writes for a parcel stored without stops: it keeps them too.
    destinations:
      filled('destinations') && !/^\[\s*\]$/.test(cells.destinations!.trim())
        ? parcel.destinations
        : undefined,
  };

  const was = editable(stored);
  const will = {
    ...was,
    sender: { ...was.sender, ...changes.sender },
    recipient: { ...was.recipient, ...changes.recipient },
    weight: changes.weight ?? was.weight,
    dimensions: { ...was.dimensions, ...changes.dimensions },
    status: changes.status ?? was.status,
    serviceType: changes.serviceType ?? was.serviceType,
    priority: changes.priority ?? was.priority,
    estimatedDelivery: time(changes.estimatedDelivery) ?? was.estimatedDelivery,
    destinations: changes.destinations ?? was.destinations,
  };
  const fields = changedFields(was, will) as ParcelImportChange[];
  // Only what changes is sent, so that an unchanged status does not touch the delivery time.
  const touched = new Set(fields.map((f) => f.field.split('.')[0]));
  const minimal = Object.fromEntries(
    Object.entries(changes).filter(([key, value]) => value !== undefined && touched.has(key)),
  ) as ParcelUpdateInput;
  return { changes: minimal, fields };
}

/**
 * readParcelCsv, and then each row with the tracking number of a stored parcel is planned as that
 * parcel's update (or found to change nothing); the preview says what each of its rows does.
 */
export async function checkParcelCsv(text: string): Promise<ImportCheck> {
  const check = readParcelCsv(text);
  if (!check.parcels.length) return check;
  const numbers = check.parcels.flatMap(({ parcel }) =>
    parcel.trackingNumber ? [parcel.trackingNumber] : [],
  );
  const stored = await parcelsByTrackingNumber(numbers);
  const errors = new ErrorList();
  const creates: ImportCheck['parcels'] = [];
  const updates: ImportCheck['updates'] = [];
  let unchanged = 0;
  const plans = new Map<number, Pick<PreviewRow, 'action' | 'changes' | 'mistyped'>>();
  for (const item of check.parcels) {
    const number = item.parcel.trackingNumber;
    const parcel = number ? stored.get(number) : undefined;
    if (!parcel) {
      creates.push(item);
      const mistyped = Boolean(number && !hasValidCheckDigit(number));
      plans.set(item.row, { action: 'New', changes: [], ...(mistyped ? { mistyped } : {}) });
      continue;
    }
    const plan = planUpdate(parcel, item, errors);
    if (!plan) continue;
    if (plan.fields.length) {
      updates.push({
        row: item.row,
        id: parcel.id,
        trackingNumber: parcel.trackingNumber,
        changes: plan.changes,
      });
      plans.set(item.row, { action: 'Update', changes: plan.fields });
    } else {
      unchanged += 1;
      plans.set(item.row, { action: 'Unchanged', changes: [] });
    }
  }
  const preview = check.preview.map((row) => ({ ...row, ...plans.get(row.row) }));
  if (errors.count || errors.truncated)
    return { ...check, preview, parcels: [], errors: errors.items, truncated: errors.truncated };
  return { ...check, preview, parcels: creates, updates, unchanged };
}

/** New tracking numbers for the rows without one: none stored, none in the file. */
export async function freshTrackingNumbers(count: number, taken: Set<string>): Promise<string[]> {
  const chosen = new Set<string>();
  while (chosen.size < count) {
    const batch = new Set<string>();
    while (batch.size + chosen.size < count) {
      const number = generateTrackingNumber();
      if (!taken.has(number) && !chosen.has(number)) batch.add(number);
    }
    const stored = await storedTrackingNumbers([...batch]);
    for (const number of batch) if (!stored.has(number)) chosen.add(number);
  }
  return [...chosen];
}

export type ImportResult = {
  /** How many parcels were created (0 for a dry run or when there are errors). */
  imported: number;
  /** Parcel rows in the file. */
  rows: number;
  dryRun: boolean;
  errors: ImportError[];
  truncated: boolean;
  /** The tracking numbers of the created parcels, in file order (new ones included). */
  trackingNumbers: string[];
  /** Rows that create a parcel, update one, or change nothing (for a dry run: would); 0 on errors. */
  created: number;
  updated: number;
  unchanged: number;
  /** The tracking numbers of the updated parcels, in file order. */
  updatedTrackingNumbers: string[];
  preview: PreviewRow[];
};

/**
 * Validates a CSV file and, unless `dryRun` or any row is bad, writes all of its new parcels in
 * one bulk insert and then updates the stored parcels its rows change, one by one through
 * updateParcel. Nothing is written when any row has an error.
 *
 * All or none: MongoDB standalone servers (and the embedded engine) have no multi-document
 * transactions, so the parcels are inserted in order with ids chosen here, and when the insert
 * fails part-way (a tracking number stored by someone else meanwhile, say) every parcel of this
 * import that was written is deleted again before the answer goes out, and nothing is updated.
 * Other readers may see the parcels during that moment; a process that dies in it leaves the ones
 * written so far. A parcel deleted between the check and its update stays deleted.
 *
 * Each created parcel gets an `import` entry in the audit trail; webhooks get one
 * `parcel.imported` event with the tracking numbers instead of one `parcel.created` per parcel.
 * An updated parcel gets what its edit would: an `update` entry, `parcel.updated` and, when its
 * status changes, `parcel.status_changed`; `parcel.imported` lists it in `updatedTrackingNumbers`.
 * No e-mail is sent (as with creating or editing a parcel: only tracking events send e-mails).
 */
export async function importParcelCsv(
  text: string,
  {
    dryRun = false,
    who,
    previewed,
  }: {
    dryRun?: boolean;
    who: Actor;
    /** What the preview said the file does: when the stored parcels now make it differ, nothing. */
    previewed?: { created: number; updated: number; unchanged: number };
  },
): Promise<ImportResult> {
  const check = await checkParcelCsv(text);
  if (
    previewed &&
    !check.errors.length &&
    (previewed.created !== check.parcels.length ||
      previewed.updated !== check.updates.length ||
      previewed.unchanged !== check.unchanged)
  ) {
    check.errors = [
      {
        row: 1,
        field: null,
        message: `The stored parcels have changed since the preview: the file now creates ${check.parcels.length}, updates ${check.updates.length} and leaves ${check.unchanged} unchanged. Upload it again to see the changes`,
      },
    ];
  }
  const ok = !check.errors.length;
  const answer = (created: string[] = [], updated: string[] = []): ImportResult => ({
    imported: created.length,
    rows: check.rows,
    dryRun,
    errors: check.errors,
    truncated: check.truncated,
    trackingNumbers: created,
    created: ok ? check.parcels.length : 0,
    updated: ok ? check.updates.length : 0,
    unchanged: ok ? check.unchanged : 0,
    updatedTrackingNumbers: updated,
    preview: check.preview,
  });
  if (dryRun || !ok || (!check.parcels.length && !check.updates.length)) return answer();

  const given = new Set(
    check.parcels.flatMap(({ parcel }) => (parcel.trackingNumber ? [parcel.trackingNumber] : [])),
  );
  const fresh = await freshTrackingNumbers(check.parcels.length - given.size, given);
  const now = new Date();
  const docs = check.parcels.map(({ parcel }) =>
    importedParcelDocument({
      ...parcel,
      trackingNumber: parcel.trackingNumber ?? fresh.pop()!,
      createdAt: parcel.createdAt ?? now,
      updatedAt: now,
    }),
  );

  try {
    if (docs.length) await insertImportedParcels(docs);
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    // Someone stored one of these tracking numbers meanwhile: report the rows as a check would.
    const again = await checkParcelCsv(text);
    return {
      ...answer(),
      created: 0,
      updated: 0,
      unchanged: 0,
      errors: again.errors.length
        ? again.errors
        : [{ row: 1, field: null, message: 'A tracking number was taken meanwhile; try again' }],
      truncated: again.truncated,
    };
  }

  const parcels = docs.map((doc) => serializeParcel(doc as LeanParcel));
  await auditNewParcels(who, 'import', parcels);
  await planDayBeforeEmailsOf(parcels);
  const updatedTrackingNumbers: string[] = [];
  for (const { id, changes } of check.updates) {
    const parcel = await updateParcel(id, changes, who);
    if (parcel) updatedTrackingNumbers.push(parcel.trackingNumber);
  }
  const trackingNumbers = parcels.map((p) => p.trackingNumber);
  await emitWebhookEvent('parcel.imported', {
    count: parcels.length,
    trackingNumbers,
    updatedTrackingNumbers,
  });
  return answer(trackingNumbers, updatedTrackingNumbers);
}
