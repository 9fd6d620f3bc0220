import type { AuditEntryView } from '~/models/audit.server';
import { formatDateTime } from '~/utils/format';

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

const VERBS = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  import: 'imported',
} as const;

/** Audit entries, newest first: who did what when and from where, with each field before and after. */
export function AuditList({ entries }: { entries: AuditEntryView[] }) {
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
            <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            {` · from ${entry.address || 'unknown address'} · ${entry.via === 'api' ? 'API' : 'dashboard'}`}
          </p>
          {entry.changes.length ? (
            <table className="mt-2 w-full text-left text-xs">
              <caption className="sr-only">Changed fields</caption>
              <thead>
                <tr className="text-gray-500">
                  <th scope="col" className="py-1 pr-2">
                    Field
                  </th>
                  <th scope="col" className="py-1 pr-2">
                    Before
                  </th>
                  <th scope="col" className="py-1">
                    After
                  </th>
                </tr>
              </thead>
              <tbody>
                {entry.changes.map((change) => (
                  <tr key={change.field} className="border-t border-gray-100 align-top">
                    <th scope="row" className="py-1 pr-2 font-mono font-normal">
                      {change.field}
                    </th>
                    <td className="break-all py-1 pr-2 text-red-800">{show(change.before)}</td>
                    <td className="break-all py-1 text-green-800">{show(change.after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
