/**
 * The PostgreSQL schema, one entry per version: entry n takes the database from version n to n+1
 * (schema_migrations records each). Entries are only ever appended; a released migration never
 * changes. The tables they build are the ones functions/state/tables.ts describes, with the SQLite
 * schema's meanings (times are epoch milliseconds, BIGINT), which tests/api/table-description.test.ts checks.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE messages (
    id BIGSERIAL PRIMARY KEY,
    sandbox BOOLEAN NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    read_at BIGINT,
    notify_state TEXT NOT NULL,
    notify_attempts INTEGER NOT NULL DEFAULT 0,
    notify_next_at BIGINT,
    notify_last_error TEXT
  );
  CREATE INDEX messages_by_time ON messages (sandbox, created_at);
  CREATE INDEX messages_to_notify ON messages (notify_next_at) WHERE notify_state = 'pending';

  -- A key's row is its claim while in_flight (token fences the commit, locked_until ends the lease),
  -- then its recorded answer once done.
  CREATE TABLE idempotency (
    scope TEXT NOT NULL,
    sandbox BOOLEAN NOT NULL,
    key TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    token TEXT,
    locked_until BIGINT,
    fingerprint TEXT,
    status INTEGER,
    body TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (scope, sandbox, key)
  );
  CREATE INDEX idempotency_expiry ON idempotency (expires_at);

  -- seq orders jobs created in the same millisecond, as SQLite's rowid does.
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    sandbox BOOLEAN NOT NULL,
    owner TEXT NOT NULL,
    task TEXT NOT NULL,
    input TEXT NOT NULL,
    status TEXT NOT NULL,
    progress DOUBLE PRECISION NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    locked_by TEXT,
    lease_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX jobs_waiting ON jobs (sandbox, created_at, seq) WHERE status = 'pending';
  CREATE INDEX jobs_running ON jobs (owner, lease_until) WHERE status = 'running';
  CREATE INDEX jobs_by_owner ON jobs (owner, status, updated_at);
  CREATE INDEX jobs_expiry ON jobs (expires_at);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT,
    created_in_sandbox BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX api_keys_expiry ON api_keys (expires_at);

  CREATE TABLE app_secrets (
    name TEXT PRIMARY KEY,
    value BYTEA NOT NULL
  );
  `,
  // The outbox: one delivery per message and channel (webhook, email), as on SQLite (migration 5 there).
  `
  CREATE TABLE deliveries (
    message_id BIGINT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at BIGINT,
    last_error TEXT,
    PRIMARY KEY (message_id, channel)
  );
  CREATE INDEX deliveries_due ON deliveries (channel, next_at) WHERE state = 'pending';
  INSERT INTO deliveries (message_id, channel, state, attempts, next_at, last_error)
    SELECT id, 'webhook', notify_state, notify_attempts, notify_next_at, notify_last_error FROM messages
    WHERE notify_state IN ('pending', 'delivered', 'failed');
  DROP INDEX messages_to_notify;
  ALTER TABLE messages DROP COLUMN notify_state, DROP COLUMN notify_attempts, DROP COLUMN notify_next_at,
    DROP COLUMN notify_last_error;
  `,
  // Folders, as on SQLite (migration 6 there).
  `
  ALTER TABLE messages ADD COLUMN folder TEXT NOT NULL DEFAULT 'inbox' CHECK (folder IN ('inbox', 'spam')),
    ADD COLUMN spam_reasons TEXT;
  DROP INDEX messages_by_time;
  CREATE INDEX messages_by_folder ON messages (sandbox, folder, created_at);
  `,
  // Sandbox storage shares and their totals, as on SQLite (migration 7 there).
  `
  ALTER TABLE messages ADD COLUMN sandbox_client TEXT, ADD COLUMN sandbox_key TEXT,
    ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX messages_by_sandbox_client ON messages (sandbox_client, id) WHERE sandbox_client IS NOT NULL;
  CREATE INDEX messages_by_sandbox_key ON messages (sandbox_key, id) WHERE sandbox_key IS NOT NULL;
  CREATE TABLE sandbox_shares (owner TEXT PRIMARY KEY, bytes BIGINT NOT NULL);
  CREATE FUNCTION sandbox_share_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO sandbox_shares (owner, bytes)
        SELECT owner, NEW.size_bytes FROM unnest(ARRAY['client:' || NEW.sandbox_client, 'key:' || NEW.sandbox_key]) AS owner
        WHERE owner IS NOT NULL
      ON CONFLICT (owner) DO UPDATE SET bytes = sandbox_shares.bytes + EXCLUDED.bytes;
    ELSE
      UPDATE sandbox_shares SET bytes = bytes - OLD.size_bytes
        WHERE owner IN ('client:' || OLD.sandbox_client, 'key:' || OLD.sandbox_key);
      DELETE FROM sandbox_shares WHERE owner IN ('client:' || OLD.sandbox_client, 'key:' || OLD.sandbox_key) AND bytes <= 0;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER sandbox_share_added AFTER INSERT ON messages
    FOR EACH ROW WHEN (NEW.sandbox_client IS NOT NULL) EXECUTE FUNCTION sandbox_share_change();
  CREATE TRIGGER sandbox_share_removed AFTER DELETE ON messages
    FOR EACH ROW WHEN (OLD.sandbox_client IS NOT NULL) EXECUTE FUNCTION sandbox_share_change();
  `,
  // Quota windows (pg-quota-counts.ts): one row per quota and client. UNLOGGED: a count is not
  // durable state, and without WAL a count commits without waiting for a disk flush; a crash
  // (or a failover to a standby) empties the table, which starts every window anew once. No
  // index on window_ends: each new window would update it, and the purge pass that would use it
  // runs every ten minutes.
  `
  CREATE UNLOGGED TABLE quota_windows (
    key TEXT PRIMARY KEY,
    window_ends BIGINT NOT NULL,
    used INTEGER NOT NULL
  );
  `,
];
