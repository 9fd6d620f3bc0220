import type { ReactNode } from 'react';

export type Column<Row> = {
  /** The column's heading; one that is only for screen readers is given as `<span className="sr-only">`. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell that names its row: a `<th scope="row">`. */
  rowHeader?: boolean;
  /** Classes of the heading and of every cell, such as `hidden md:table-cell`. */
  className?: string;
  /** Classes of the cells only. */
  cellClassName?: string;
};

/** The classes a kind of table gives its parts. */
export type TableLook = {
  table: string;
  head?: string;
  headRow?: string;
  body?: string;
  row?: string;
  /** Padding of every heading and cell. */
  cell: string;
};

/** The dashboard's lists of records: a grey heading row, rules between the rows. */
export const RULED: TableLook = {
  table: 'w-full text-left text-sm',
  head: 'bg-gray-50 text-gray-600',
  row: 'border-t border-gray-100 align-top',
  cell: 'px-3 py-2',
};

/** A table within a card's or a page's text, its columns flush with the text. */
export const FLUSH: TableLook = {
  table: 'w-full text-start text-sm',
  head: 'text-gray-600',
  headRow: 'border-b border-gray-200',
  row: 'border-b border-gray-100 align-top',
  cell: 'py-2 pe-4 last:pe-0',
};

/** A small table inside one entry of a list, such as an audit entry's changed fields. */
export const COMPACT: TableLook = {
  table: 'mt-2 w-full text-left text-xs',
  headRow: 'text-gray-500',
  row: 'border-t border-gray-100 align-top',
  cell: 'py-1 pr-2 last:pr-0',
};

/**
 * A table drawn from its columns: the caption, one heading per column, one row per record, in
 * one of the looks above.
 */
export function DataTable<Row>({
  caption,
  captionClassName = 'sr-only',
  columns,
  rows,
  rowKey,
  look = RULED,
  className = look.table,
}: {
  caption?: ReactNode;
  captionClassName?: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  look?: TableLook;
  className?: string;
}) {
  const classes = (...names: (string | undefined)[]) => names.filter(Boolean).join(' ');
  return (
    <table className={className}>
      {caption ? <caption className={captionClassName}>{caption}</caption> : null}
      <thead className={look.head}>
        <tr className={look.headRow}>
          {columns.map((column, index) => (
            <th key={index} scope="col" className={classes(look.cell, column.className)}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={look.body}>
        {rows.map((row, rowIndex) => (
          <tr key={rowKey(row, rowIndex)} className={look.row}>
            {columns.map((column, index) => {
              const className = classes(look.cell, column.className, column.cellClassName);
              return column.rowHeader ? (
                <th key={index} scope="row" className={className}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={index} className={className}>
                  {column.cell(row)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A wide table's box that scrolls sideways on a narrow screen; focusable, so that a keyboard can
 * scroll it too.
 */
export function ScrollRegion({
  label,
  className = 'overflow-x-auto',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
