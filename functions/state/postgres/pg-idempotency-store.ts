import { randomBytes } from 'node:crypto';
import type { PgPool } from './pg-connections.ts';
import type { Claim, IdempotencyStore, KeyRef } from '../../contact/idempotency-store.ts';
import { StorageUnavailable } from '../../http/storage-unavailable.ts';
import { isUnavailable, withPostgres } from './pg-errors.ts';
import { PgGroupCommit } from './pg-group-commit.ts';

/**
 * Takes the key unless someone holds it: a new row, or a row whose answer expired or whose
 * claim's lease passed (its holder died). The row is the lock, committed on its own, so every
 * instance sees it. An in-flight claim expires with its lease.
 *
 * The claim commits without waiting for its WAL to reach the disk (synchronous_commit off for
 * this transaction only, set in the statement, so it holds through a transaction-mode pooler).
 * It is visible to every instance at once all the same; what a crash of the database can lose
 * is the claim alone, which frees the key: the request holding it loses its connection with
 * the crash, so it stores nothing, and its retry claims the key anew. The answer and the
 * message (PgMessageStore.storeSubmission) still commit durably before the answer goes out,
 * and that commit flushes the claim's WAL with its own. One disk flush per message, not two.
 * Each parameter is an array with an element per claim (they are grouped: CLAIM_GROUPS);
 * the tokens that come back are the claims taken.
 */
const CLAIMS = `
  INSERT INTO idempotency AS held (scope, sandbox, key, state, token, locked_until, created_at, expires_at)
    SELECT scope, sandbox, key, 'in_flight', token, now + lease, now, now + lease
    FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
      AS wanted (scope, sandbox, key, token, now, lease)
    WHERE set_config('synchronous_commit', 'off', true) = 'off'
  ON CONFLICT (scope, sandbox, key) DO UPDATE SET
    state = 'in_flight', token = EXCLUDED.token, locked_until = EXCLUDED.locked_until,
    fingerprint = NULL, status = NULL, body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
  WHERE held.expires_at <= EXCLUDED.created_at OR (held.state = 'in_flight' AND held.locked_until <= EXCLUDED.created_at)
  RETURNING token`;

/**
 * Claims asked for at the same time share a statement (functions/state/postgres/pg-group-commit.ts);
 * two on one key in a batch make it fail, and then each is tried alone.
 */
const CLAIM_GROUPS = { inFlight: 4, batch: 64 };

const HOLDER =
  'SELECT state, fingerprint, status, body FROM idempotency WHERE scope = $1 AND sandbox = $2 AND key = $3';

const RELEASE =
  "DELETE FROM idempotency WHERE scope = $1 AND sandbox = $2 AND key = $3 AND state = 'in_flight' AND token = $4";

/** How often claims left held by an unreachable database are given back again, and how many are remembered. */
const RELEASE_RETRY_MS = 1000;
const MAX_UNRELEASED = 10_000;

/** A claim's parameters: scope, sandbox, key, token, now, lease. */
type ClaimRow = [string, boolean, string, string, number, number];

interface HolderRow {
  state: 'in_flight' | 'done';
  fingerprint: string;
  status: number;
  body: string;
}

/**
 * Idempotency claims and answers in PostgreSQL; the answers are recorded by PgMessageStore.storeSubmission.
 *
 * A request whose write failed because the database went away (a restart) gives its claim back,
 * but that release fails too. Such claims are remembered and given back as soon as the database
 * answers again: by the next request with the same key on this instance, before it claims, and
 * by a retry every RELEASE_RETRY_MS for requests that come through other instances. Otherwise
 * the key would answer 409 until the claim's lease (the longest a request may take) ran out.
 */
export class PgIdempotencyStore implements IdempotencyStore {
  /** Claims whose release could not reach the database, by key. */
  private readonly unreleased = new Map<string, { ref: KeyRef; token: string }>();
  private retryTimer: NodeJS.Timeout | undefined;

  /** Claims asked for at the same time, in one statement: each comes back with whether it was taken. */
  private readonly grouped = new PgGroupCommit(async (claims: ClaimRow[]) => {
    const columns = [0, 1, 2, 3, 4, 5].map((column) => claims.map((claim) => claim[column]));
    const { rows } = await this.pool.query<{ token: string }>(CLAIMS, columns);
    const taken = new Set(rows.map((row) => row.token));
    return claims.map((claim) => taken.has(claim[3]));
  }, CLAIM_GROUPS);

  constructor(private readonly pool: PgPool) {}

  claim(ref: KeyRef, leaseMs: number, now = Date.now()): Promise<Claim> {
    return withPostgres(async () => {
      const left = this.unreleased.get(idOf(ref));
      if (left !== undefined) {
        await this.pool.query(RELEASE, [ref.scope, ref.sandbox, ref.key, left.token]);
        this.unreleased.delete(idOf(ref));
      }
      // The holder may give the key back between our two statements; then it is free to take. A
      // key that keeps changing hands that fast is, for this request, held by someone else.
      for (let attempt = 0; attempt < 3; attempt++) {
        const token = randomBytes(18).toString('base64url');
        if (await this.grouped.submit([ref.scope, ref.sandbox, ref.key, token, now, leaseMs]))
          return { kind: 'claimed', token };
        const { rows } = await this.pool.query<HolderRow>(HOLDER, [ref.scope, ref.sandbox, ref.key]);
        const holder = rows[0];
        if (holder === undefined) continue;
        if (holder.state === 'in_flight') return { kind: 'in_flight' };
        const { fingerprint, status, body } = holder;
        return { kind: 'recorded', answer: { fingerprint, status, body } };
      }
      return { kind: 'in_flight' };
    });
  }

  async release(ref: KeyRef, token: string): Promise<void> {
    try {
      await withPostgres(() => this.pool.query(RELEASE, [ref.scope, ref.sandbox, ref.key, token]));
    } catch (error) {
      if (error instanceof StorageUnavailable) this.remember(ref, token);
      throw error;
    }
  }

  /** Keeps a claim to give back once the database answers; the oldest beyond MAX_UNRELEASED is left to its lease. */
  private remember(ref: KeyRef, token: string): void {
    this.unreleased.delete(idOf(ref));
    this.unreleased.set(idOf(ref), { ref, token });
    if (this.unreleased.size > MAX_UNRELEASED) this.unreleased.delete(this.unreleased.keys().next().value!);
    this.retryTimer ??= setTimeout(() => void this.retryReleases(), RELEASE_RETRY_MS).unref();
  }

  /** Gives back every remembered claim the database now takes; tries again later while it cannot. */
  private async retryReleases(): Promise<void> {
    for (const [id, { ref, token }] of this.unreleased) {
      try {
        await this.pool.query(RELEASE, [ref.scope, ref.sandbox, ref.key, token]);
      } catch (error) {
        // Still unreachable: later. Anything else (the pool closed at shutdown): the leases free them in time.
        if (!isUnavailable(error)) this.unreleased.clear();
        break;
      }
      // A request on this instance may have taken the key back meanwhile: then the entry is a newer one.
      if (this.unreleased.get(id)?.token === token) this.unreleased.delete(id);
    }
    this.retryTimer =
      this.unreleased.size === 0 ? undefined : setTimeout(() => void this.retryReleases(), RELEASE_RETRY_MS).unref();
  }

  purge(now = Date.now()): Promise<number> {
    return withPostgres(async () => {
      const { rowCount } = await this.pool.query('DELETE FROM idempotency WHERE expires_at <= $1', [now]);
      return rowCount ?? 0;
    });
  }
}

function idOf(ref: KeyRef): string {
  return `${ref.scope}\u0000${String(ref.sandbox)}\u0000${ref.key}`;
}
