/** A value as both engines hold it once SQLite's 0/1 booleans are read as booleans. */
type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** A column and its PostgreSQL type, which jsonb_to_recordset needs to read rows sent as JSON. */
interface Column {
  name: string;
  type: 'bigint' | 'integer' | 'boolean' | 'text';
}

/** How one table is copied: which rows of SQLite, and what makes a row in PostgreSQL the same one. */
export interface TableCopy {
  table: 'messages' | 'deliveries' | 'api_keys' | 'idempotency';
  columns: readonly Column[];
  /** The primary key's columns: a row with this key in PostgreSQL is the row, or a conflict. */
  key: readonly string[];
  /**
   * The columns a row is recognised by. A row in PostgreSQL with the same key and other values
   * here is someone else's (the database was used by other instances); one that differs only in
   * the other columns is this row with state that moved on after an earlier copy.
   */
  identity: readonly string[];
  /** The SQLite query of the rows to copy, in `columns` order; `@now` is the time of the copy (epoch ms). */
  source: string;
}

function columns(spec: Record<string, Column['type']>): Column[] {
  return Object.entries(spec).map(([name, type]) => ({ name, type }));
}

const MESSAGE_COLUMNS = columns({
  id: 'bigint',
  sandbox: 'boolean',
  name: 'text',
  email: 'text',
  message: 'text',
  created_at: 'bigint',
  read_at: 'bigint',
  folder: 'text',
  spam_reasons: 'text',
  sandbox_client: 'text',
  sandbox_key: 'text',
  size_bytes: 'integer',
});

/**
 * Every message, spam included, with its id (the inbox, replays and webhook receivers know messages
 * by it). What a visitor wrote identifies it; whether it was read since, or moved out of the spam
 * folder, is state, and PostgreSQL's is kept when they differ (an instance there has moved it on).
 */
const MESSAGES: TableCopy = {
  table: 'messages',
  columns: MESSAGE_COLUMNS,
  key: ['id'],
  identity: ['id', 'sandbox', 'name', 'email', 'message', 'created_at'],
  source: `SELECT ${MESSAGE_COLUMNS.map((column) => column.name).join(', ')} FROM messages ORDER BY id`,
};

const DELIVERY_COLUMNS = columns({
  message_id: 'bigint',
  channel: 'text',
  state: 'text',
  attempts: 'integer',
  next_at: 'bigint',
  last_error: 'text',
});

/**
 * The outbox: each message's delivery per channel, so a delivered message is not sent again and a
 * pending one is sent from PostgreSQL. A row is its message and channel; its state moves on like a
 * read mark, and PostgreSQL's is kept when they differ.
 */
const DELIVERIES: TableCopy = {
  table: 'deliveries',
  columns: DELIVERY_COLUMNS,
  key: ['message_id', 'channel'],
  identity: ['message_id', 'channel'],
  source: `SELECT ${DELIVERY_COLUMNS.map((column) => column.name).join(', ')} FROM deliveries ORDER BY message_id, channel`,
};

const KEY_COLUMNS = columns({
  id: 'text',
  hash: 'text',
  label: 'text',
  created_in_sandbox: 'boolean',
  created_at: 'bigint',
  expires_at: 'bigint',
});

/** Test keys still valid (an expired one verifies nowhere); only their hashes exist to copy. */
const API_KEYS: TableCopy = {
  table: 'api_keys',
  columns: KEY_COLUMNS,
  key: ['id'],
  identity: KEY_COLUMNS.map((column) => column.name),
  source: `SELECT ${KEY_COLUMNS.map((column) => column.name).join(', ')} FROM api_keys WHERE expires_at > @now ORDER BY id`,
};

const RECORD_COLUMNS = columns({
  scope: 'text',
  sandbox: 'boolean',
  key: 'text',
  state: 'text',
  fingerprint: 'text',
  status: 'integer',
  body: 'text',
  created_at: 'bigint',
  expires_at: 'bigint',
});

/**
 * Recorded answers still replayable, so a client retrying across the move gets its replay rather
 * than a second message. Only 'done' rows: a claim in flight belonged to the stopped process.
 */
const IDEMPOTENCY: TableCopy = {
  table: 'idempotency',
  columns: RECORD_COLUMNS,
  key: ['scope', 'sandbox', 'key'],
  identity: RECORD_COLUMNS.map((column) => column.name),
  source: `SELECT ${RECORD_COLUMNS.map((column) => column.name).join(', ')} FROM idempotency
    WHERE state = 'done' AND expires_at > @now ORDER BY created_at, scope, key`,
};

/**
 * The tables copied, in this order (a delivery after its message). Jobs are not: they live
 * minutes, and a running one belongs to its process.
 */
export const TABLES: readonly TableCopy[] = [MESSAGES, DELIVERIES, API_KEYS, IDEMPOTENCY];

/** SQLite stores booleans as 0 and 1; PostgreSQL's columns are booleans. */
export function fromSqlite(copy: TableCopy, row: Record<string, unknown>): Row {
  return Object.fromEntries(
    copy.columns.map(({ name, type }) => {
      const value = row[name] as Value;
      return [name, type === 'boolean' && value !== null ? value === 1 || value === true : value];
    }),
  );
}
