import {
  columnsOn,
  SQL_TYPES,
  sqliteToPostgres,
  TABLES,
  type DescribedColumn,
  type TableName,
} from '../../state/tables.ts';

/** A value as both engines hold it once SQLite's 0/1 booleans are read as booleans. */
type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** A copied column and its PostgreSQL type, which jsonb_to_recordset needs to read rows sent as JSON. */
interface Column extends DescribedColumn {
  type: string;
}

/**
 * How one table is copied, as state/tables.ts describes it: which rows of SQLite, and what makes a
 * row in PostgreSQL the same one.
 */
export interface TableCopy {
  table: TableName;
  /** Every column SQLite has; the columns only PostgreSQL has (a claim's lease) keep their defaults. */
  columns: readonly Column[];
  /** The primary key's columns: a row with this key in PostgreSQL is the row, or a conflict. */
  key: readonly string[];
  /** The columns a row is recognised by (CopySpec.identity). */
  identity: readonly string[];
  /** The column PostgreSQL numbers from a sequence, which must move past the copied values; null when none. */
  serial: string | null;
  /** The SQLite query of the rows to copy, in `columns` order; `@now` is the time of the copy (epoch ms). */
  source: string;
}

function tableCopy(table: TableName): TableCopy[] {
  const { key, copy } = TABLES[table];
  if (copy === undefined) return [];
  const columns = columnsOn(table, 'sqlite').map((column) => ({ ...column, type: SQL_TYPES[column.kind].postgresql }));
  const names = columns.map((column) => column.name);
  const where = copy.where === undefined ? '' : ` WHERE ${copy.where}`;
  return [
    {
      table,
      columns,
      key,
      identity: copy.identity ?? names,
      serial: columns.find((column) => column.kind === 'serial')?.name ?? null,
      source: `SELECT ${names.join(', ')} FROM ${table}${where} ORDER BY ${copy.orderBy.join(', ')}`,
    },
  ];
}

/** The tables copied, in the described order (a delivery after its message). */
export const COPIED_TABLES: readonly TableCopy[] = (Object.keys(TABLES) as TableName[]).flatMap(tableCopy);

/** A row as SQLite returned it, as PostgreSQL takes it. */
export function fromSqlite(copy: TableCopy, row: Record<string, unknown>): Row {
  return Object.fromEntries(copy.columns.map(({ name, kind }) => [name, sqliteToPostgres(kind, row[name]) as Value]));
}
