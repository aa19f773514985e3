import type { PoolClient } from 'pg';
import type { Row, TableCopy } from './tables.ts';

/** How one table's rows from SQLite stand against PostgreSQL. */
export interface TablePlan {
  copy: TableCopy;
  /** Rows PostgreSQL does not have: the ones to insert. */
  missing: Row[];
  /** Rows PostgreSQL has already (an earlier copy), including those whose state moved on there. */
  present: number;
  /** Of those, the rows whose state PostgreSQL has changed since (read, delivered): PostgreSQL's is kept. */
  movedOn: number;
  /** Rows whose key PostgreSQL holds for another row: any one of them stops the whole copy. */
  conflicts: Row[];
}

/** Rows sent per statement: one JSON parameter each, small enough for any inbox. */
const CHUNK = 1000;

/**
 * Compares `rows` with what PostgreSQL holds under the same keys. Without a schema yet (a dry run
 * on an empty database) PostgreSQL holds nothing.
 */
export async function planTable(
  client: PoolClient,
  copy: TableCopy,
  rows: readonly Row[],
  hasSchema: boolean,
): Promise<TablePlan> {
  const held = hasSchema ? await heldRows(client, copy, rows) : new Map<string, Row>();
  const plan: TablePlan = { copy, missing: [], present: 0, movedOn: 0, conflicts: [] };
  for (const row of rows) {
    const existing = held.get(keyOf(copy, row));
    if (existing === undefined) plan.missing.push(row);
    else if (!sameValues(copy.identity, row, existing)) plan.conflicts.push(row);
    else {
      plan.present++;
      if (!sameValues(Object.keys(row), row, existing)) plan.movedOn++;
    }
  }
  return plan;
}

/** Inserts the rows as they are, ids included. */
export async function insertRows(client: PoolClient, copy: TableCopy, rows: readonly Row[]): Promise<void> {
  const names = columnList(copy.columns.map((column) => column.name));
  for (let start = 0; start < rows.length; start += CHUNK) {
    await client.query(
      `INSERT INTO ${copy.table} (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType(copy.columns)})`,
      [JSON.stringify(rows.slice(start, start + CHUNK))],
    );
  }
}

/** A row's key as the report names it: `id 12`, or `scope contact, sandbox false, key 3f2a…`. */
export function describeKey(copy: TableCopy, row: Row): string {
  return copy.key.map((name) => `${name} ${String(row[name])}`).join(', ');
}

/** The rows PostgreSQL holds under the keys of `rows`, by key. */
async function heldRows(client: PoolClient, copy: TableCopy, rows: readonly Row[]): Promise<Map<string, Row>> {
  const keyColumns = copy.columns.filter((column) => copy.key.includes(column.name));
  const held = new Map<string, Row>();
  for (let start = 0; start < rows.length; start += CHUNK) {
    const keys = rows.slice(start, start + CHUNK).map((row) => Object.fromEntries(copy.key.map((k) => [k, row[k]])));
    const { rows: found } = await client.query<Row>(
      `SELECT ${columnList(copy.columns.map((column) => `t.${column.name}`))} FROM ${copy.table} AS t
       JOIN jsonb_to_recordset($1::jsonb) AS r(${recordType(keyColumns)}) USING (${columnList(copy.key)})`,
      [JSON.stringify(keys)],
    );
    for (const row of found) held.set(keyOf(copy, row), row);
  }
  return held;
}

function keyOf(copy: TableCopy, row: Row): string {
  return JSON.stringify(copy.key.map((name) => row[name]));
}

function sameValues(names: readonly string[], a: Row, b: Row): boolean {
  return names.every((name) => a[name] === b[name]);
}

function columnList(names: readonly string[]): string {
  return names.join(', ');
}

/** The record type jsonb_to_recordset reads the JSON rows as: `id bigint, name text, …`. */
function recordType(columns: TableCopy['columns']): string {
  return columns.map(({ name, type }) => `${name} ${type}`).join(', ');
}
