import type { ReactNode } from 'react';
import { COMPACT, DataTable, type Column } from '~/components/ui/data-table';
import type { AuditEntryView, AuditValue } from '~/models/audit.server';
import { formatDate, formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A stored field path as words: 'recipient.postalCode' → 'Recipient postal code'. */
export function fieldLabel(path: string): string {
  const words = path
    .split('.')
    .flatMap((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/))
    .filter(Boolean)
    .map((word) => (/^[A-Z0-9]+$/.test(word) ? word : word.toLowerCase()));
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

// Fields that hold a day, stored as its UTC midnight: shown as that day, as the parcel table does.
const DAY_FIELDS = new Set(['estimatedDelivery']);

/** One value as a person reads it: times in the company's zone, lists as lists, no JSON. */
export function Readable({
  value,
  timeZone,
  field,
}: {
  value: AuditValue;
  timeZone: string;
  field?: string;
}): ReactNode {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (!ISO_INSTANT.test(value)) return value;
    return field && DAY_FIELDS.has(field) ? formatDate(value) : formatDateTime(value, timeZone);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return 'None';
    // Numbered lines rather than a nested list: the entries themselves are the list.
    return value.map((item, index) => (
      <span key={index} className="block">
        {index + 1}. <Readable value={item} timeZone={timeZone} />
      </span>
    ));
  }
  const parts = Object.entries(value).filter(
    ([key, inner]) => key !== '_id' && key !== 'id' && inner !== null && inner !== '',
  );
  if (parts.length === 0) return '—';
  return (
    <span>
      {parts.map(([key, inner], index) => (
        <span key={key}>
          {index ? '; ' : ''}
          {fieldLabel(key)}: <Readable value={inner} timeZone={timeZone} field={key} />
        </span>
      ))}
    </span>
  );
}

const VERBS = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  import: 'imported',
} as const;

type Change = AuditEntryView['changes'][number];

function changeColumns(timeZone: string): Column<Change>[] {
  return [
    {
      header: 'Field',
      rowHeader: true,
      cellClassName: 'font-normal',
      cell: (change) => fieldLabel(change.field),
    },
    {
      header: 'Before',
      cellClassName: 'break-words text-red-800',
      cell: (change) => <Readable value={change.before} timeZone={timeZone} field={change.field} />,
    },
    {
      header: 'After',
      cellClassName: 'break-words text-green-800',
      cell: (change) => <Readable value={change.after} timeZone={timeZone} field={change.field} />,
    },
  ];
}

/** Audit entries, newest first: who did what when and from where, with each field before and after. */
export function AuditList({ entries }: { entries: AuditEntryView[] }) {
  const { timeZone } = useCompany();
  if (entries.length === 0) return <p className="text-gray-600">No changes recorded.</p>;
  return (
    <ol className="space-y-3" aria-label="Audit entries">
      {entries.map((entry) => (
        <li key={entry.id} className="rounded-md border border-gray-200 p-3 text-sm">
          <p>
            <span className="font-semibold">{entry.actor.username || 'Someone'}</span>{' '}
            {VERBS[entry.action as keyof typeof VERBS] ?? entry.action} {entry.entity}{' '}
            {entry.label ? <span className="font-mono">{entry.label}</span> : null}
          </p>
          <p className="text-xs text-gray-600">
            <time dateTime={entry.at}>{formatDateTime(entry.at, timeZone)}</time>
            {` · from ${entry.address || 'unknown address'} · ${entry.via === 'api' ? 'API' : 'dashboard'}`}
          </p>
          {entry.changes.length ? (
            <DataTable
              caption="Changed fields"
              look={COMPACT}
              columns={changeColumns(timeZone)}
              rows={entry.changes}
              rowKey={(change) => change.field}
            />
          ) : null}
        </li>
      ))}
    </ol>
  );
}
