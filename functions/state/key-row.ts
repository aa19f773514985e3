import type { StoredKey } from '../keys/key-store.ts';
import type { ColumnName } from './tables.ts';

/** The columns of a test key that lookups return, as either engine returns them (times in epoch milliseconds). */
export interface KeyRow {
  id: string;
  label: string | null;
  created_at: number;
  expires_at: number;
}

/** The columns of KeyRow, as both engines select them. */
export const KEY_COLUMNS = (
  ['id', 'label', 'created_at', 'expires_at'] satisfies (keyof KeyRow & ColumnName<'api_keys'>)[]
).join(', ');

/** A stored key as the key service sees it; undefined for no row. */
export function toStoredKey(row: KeyRow | undefined): StoredKey | undefined {
  if (row === undefined) return undefined;
  return { keyId: row.id, label: row.label, createdAt: row.created_at, expiresAt: row.expires_at };
}
