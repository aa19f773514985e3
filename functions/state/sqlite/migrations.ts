/**
 * The schema, one entry per version: entry n takes the database from user_version n to n+1.
 * Entries are only ever appended; a released migration never changes. The tables they build are
 * the ones functions/state/tables.ts describes, which tests/api/table-description.test.ts checks.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sandbox INTEGER NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    read_at INTEGER,
    notify_state TEXT NOT NULL,
    notify_attempts INTEGER NOT NULL DEFAULT 0,
    notify_next_at INTEGER,
    notify_last_error TEXT
  );
  CREATE INDEX messages_by_time ON messages (sandbox, created_at);
  CREATE INDEX messages_to_notify ON messages (notify_state, notify_next_at);

  CREATE TABLE idempotency (
    scope TEXT NOT NULL,
    sandbox INTEGER NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT,
    state TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (scope, sandbox, key)
  );
  CREATE INDEX idempotency_expiry ON idempotency (expires_at);
  `,
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    sandbox INTEGER NOT NULL,
    task TEXT NOT NULL,
    input TEXT NOT NULL,
    status TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX jobs_by_status ON jobs (status, created_at);
  CREATE INDEX jobs_expiry ON jobs (expires_at);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT,
    created_in_sandbox INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  `,
  // Jobs belong to the client that created them (the quota key: its IP, or its test key), so
  // queue shares and the cap on stored results can count per client. Jobs created before this
  // migration have no owner and count as one client ('').
  `
  ALTER TABLE jobs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
  CREATE INDEX jobs_by_owner ON jobs (owner, status, updated_at);
  `,
  // Running jobs are leased to a worker, as on PostgreSQL (functions/jobs/job-store.ts): the
  // worker's writes are fenced by locked_by, and attempts counts runs for the reaper.
  `
  ALTER TABLE jobs ADD COLUMN locked_by TEXT;
  ALTER TABLE jobs ADD COLUMN lease_until INTEGER;
  ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  `,
  // The outbox: one delivery per message and channel (webhook, email), each with its own state,
  // attempts and next attempt, claimed on its own. The webhook state that messages held moves here;
  // a message that had no delivery (sandbox, or no webhook configured) gets no row.
  `
  CREATE TABLE deliveries (
    message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER,
    last_error TEXT,
    PRIMARY KEY (message_id, channel)
  );
  CREATE INDEX deliveries_due ON deliveries (channel, state, next_at);
  INSERT INTO deliveries (message_id, channel, state, attempts, next_at, last_error)
    SELECT id, 'webhook', notify_state, notify_attempts, notify_next_at, notify_last_error FROM messages
    WHERE notify_state IN ('pending', 'delivered', 'failed');
  DROP INDEX messages_to_notify;
  ALTER TABLE messages DROP COLUMN notify_state;
  ALTER TABLE messages DROP COLUMN notify_attempts;
  ALTER TABLE messages DROP COLUMN notify_next_at;
  ALTER TABLE messages DROP COLUMN notify_last_error;
  `,
  // Folders: a message judged spam (functions/contact/spam-score.ts) is kept apart, with its reasons
  // (a JSON array), and never notified. Every message stored before was in the inbox.
  `
  ALTER TABLE messages ADD COLUMN folder TEXT NOT NULL DEFAULT 'inbox';
  ALTER TABLE messages ADD COLUMN spam_reasons TEXT;
  DROP INDEX messages_by_time;
  CREATE INDEX messages_by_folder ON messages (sandbox, folder, created_at);
  `,
  // Sandbox storage shares: a sandbox message records its client (IP, or /64) and test key and the
  // bytes its text takes, so each keeps a bounded amount (functions/contact/contact-service.ts).
  // sandbox_shares holds each one's total, kept by triggers whatever deletes a message (the
  // trim, the retention purge), so a new message finds its share's total without a scan.
  // Messages stored before count for nobody and leave with SANDBOX_RETENTION_SECONDS.
  `
  ALTER TABLE messages ADD COLUMN sandbox_client TEXT;
  ALTER TABLE messages ADD COLUMN sandbox_key TEXT;
  ALTER TABLE messages ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX messages_by_sandbox_client ON messages (sandbox_client, id) WHERE sandbox_client IS NOT NULL;
  CREATE INDEX messages_by_sandbox_key ON messages (sandbox_key, id) WHERE sandbox_key IS NOT NULL;
  CREATE TABLE sandbox_shares (owner TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
  CREATE TRIGGER sandbox_share_added AFTER INSERT ON messages WHEN new.sandbox_client IS NOT NULL BEGIN
    INSERT INTO sandbox_shares (owner, bytes)
      SELECT owner, new.size_bytes FROM (SELECT 'client:' || new.sandbox_client AS owner UNION ALL SELECT 'key:' || new.sandbox_key)
      WHERE owner IS NOT NULL
    ON CONFLICT (owner) DO UPDATE SET bytes = bytes + excluded.bytes;
  END;
  CREATE TRIGGER sandbox_share_removed AFTER DELETE ON messages WHEN old.sandbox_client IS NOT NULL BEGIN
    UPDATE sandbox_shares SET bytes = bytes - old.size_bytes
      WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key);
    DELETE FROM sandbox_shares WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key) AND bytes <= 0;
  END;
  `,
  // The CHECK constraints PostgreSQL has had from the start (its migrations 1 to 3): a folder, a
  // delivery state or a claim state that no code writes is refused instead of stored. SQLite adds
  // a CHECK only to a new table (https://www.sqlite.org/lang_altertable.html#otheralter), so each
  // table is made anew and its rows copied; its columns, indexes and triggers stay as they were.
  // Foreign keys stay on: deliveries is made anew first, referencing the new messages, so dropping
  // the old tables deletes nothing through ON DELETE CASCADE (and a DROP fires no trigger), and
  // renaming messages_new makes deliveries reference messages again. The messages' AUTOINCREMENT
  // sequence is carried over, so the id of a deleted message is still never given again. Claims
  // an earlier version left behind (state 'in_progress') had no answer to keep: they are dropped.
  `
  CREATE TABLE messages_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sandbox INTEGER NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    read_at INTEGER,
    folder TEXT NOT NULL DEFAULT 'inbox' CHECK (folder IN ('inbox', 'spam')),
    spam_reasons TEXT,
    sandbox_client TEXT,
    sandbox_key TEXT,
    size_bytes INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO messages_new (id, sandbox, name, email, message, created_at, read_at, folder, spam_reasons,
      sandbox_client, sandbox_key, size_bytes)
    SELECT id, sandbox, name, email, message, created_at, read_at, folder, spam_reasons, sandbox_client,
      sandbox_key, size_bytes FROM messages;
  DELETE FROM sqlite_sequence WHERE name = 'messages_new';
  INSERT INTO sqlite_sequence (name, seq) SELECT 'messages_new', seq FROM sqlite_sequence WHERE name = 'messages';

  CREATE TABLE deliveries_new (
    message_id INTEGER NOT NULL REFERENCES messages_new (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER,
    last_error TEXT,
    PRIMARY KEY (message_id, channel)
  );
  INSERT INTO deliveries_new (message_id, channel, state, attempts, next_at, last_error)
    SELECT message_id, channel, state, attempts, next_at, last_error FROM deliveries;

  DROP TABLE deliveries;
  DROP TABLE messages;
  ALTER TABLE messages_new RENAME TO messages;
  ALTER TABLE deliveries_new RENAME TO deliveries;
  CREATE INDEX messages_by_folder ON messages (sandbox, folder, created_at);
  CREATE INDEX messages_by_sandbox_client ON messages (sandbox_client, id) WHERE sandbox_client IS NOT NULL;
  CREATE INDEX messages_by_sandbox_key ON messages (sandbox_key, id) WHERE sandbox_key IS NOT NULL;
  CREATE INDEX deliveries_due ON deliveries (channel, state, next_at);
  CREATE TRIGGER sandbox_share_added AFTER INSERT ON messages WHEN new.sandbox_client IS NOT NULL BEGIN
    INSERT INTO sandbox_shares (owner, bytes)
      SELECT owner, new.size_bytes FROM (SELECT 'client:' || new.sandbox_client AS owner UNION ALL SELECT 'key:' || new.sandbox_key)
      WHERE owner IS NOT NULL
    ON CONFLICT (owner) DO UPDATE SET bytes = bytes + excluded.bytes;
  END;
  CREATE TRIGGER sandbox_share_removed AFTER DELETE ON messages WHEN old.sandbox_client IS NOT NULL BEGIN
    UPDATE sandbox_shares SET bytes = bytes - old.size_bytes
      WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key);
    DELETE FROM sandbox_shares WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key) AND bytes <= 0;
  END;

  CREATE TABLE idempotency_new (
    scope TEXT NOT NULL,
    sandbox INTEGER NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status INTEGER,
    body TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (scope, sandbox, key)
  );
  INSERT INTO idempotency_new (scope, sandbox, key, fingerprint, state, status, body, created_at, expires_at)
    SELECT scope, sandbox, key, fingerprint, state, status, body, created_at, expires_at FROM idempotency
    WHERE state IN ('in_flight', 'done');
  DROP TABLE idempotency;
  ALTER TABLE idempotency_new RENAME TO idempotency;
  CREATE INDEX idempotency_expiry ON idempotency (expires_at);
  `,
  // A primary key that is TEXT may hold NULL on SQLite, for compatibility with its early versions
  // (https://www.sqlite.org/lang_createtable.html#the_primary_key), while PostgreSQL refuses it: so
  // jobs, api_keys and sandbox_shares are made anew with NOT NULL on their key, as migration 8 made
  // three others anew, their columns in the same order and their indexes kept. The two triggers
  // of messages write sandbox_shares, so they are dropped before it and made again after.
  `
  CREATE TABLE jobs_new (
    id TEXT NOT NULL PRIMARY KEY,
    sandbox INTEGER NOT NULL,
    task TEXT NOT NULL,
    input TEXT NOT NULL,
    status TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    owner TEXT NOT NULL DEFAULT '',
    locked_by TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO jobs_new SELECT id, sandbox, task, input, status, progress, result, error, created_at, updated_at,
    expires_at, owner, locked_by, lease_until, attempts FROM jobs WHERE id IS NOT NULL;
  DROP TABLE jobs;
  ALTER TABLE jobs_new RENAME TO jobs;
  CREATE INDEX jobs_by_status ON jobs (status, created_at);
  CREATE INDEX jobs_expiry ON jobs (expires_at);
  CREATE INDEX jobs_by_owner ON jobs (owner, status, updated_at);

  CREATE TABLE api_keys_new (
    id TEXT NOT NULL PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT,
    created_in_sandbox INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  INSERT INTO api_keys_new SELECT id, hash, label, created_in_sandbox, created_at, expires_at FROM api_keys
    WHERE id IS NOT NULL;
  DROP TABLE api_keys;
  ALTER TABLE api_keys_new RENAME TO api_keys;

  DROP TRIGGER sandbox_share_added;
  DROP TRIGGER sandbox_share_removed;
  CREATE TABLE sandbox_shares_new (owner TEXT NOT NULL PRIMARY KEY, bytes INTEGER NOT NULL);
  INSERT INTO sandbox_shares_new SELECT owner, bytes FROM sandbox_shares WHERE owner IS NOT NULL;
  DROP TABLE sandbox_shares;
  ALTER TABLE sandbox_shares_new RENAME TO sandbox_shares;
  CREATE TRIGGER sandbox_share_added AFTER INSERT ON messages WHEN new.sandbox_client IS NOT NULL BEGIN
    INSERT INTO sandbox_shares (owner, bytes)
      SELECT owner, new.size_bytes FROM (SELECT 'client:' || new.sandbox_client AS owner UNION ALL SELECT 'key:' || new.sandbox_key)
      WHERE owner IS NOT NULL
    ON CONFLICT (owner) DO UPDATE SET bytes = bytes + excluded.bytes;
  END;
  CREATE TRIGGER sandbox_share_removed AFTER DELETE ON messages WHEN old.sandbox_client IS NOT NULL BEGIN
    UPDATE sandbox_shares SET bytes = bytes - old.size_bytes
      WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key);
    DELETE FROM sandbox_shares WHERE owner IN ('client:' || old.sandbox_client, 'key:' || old.sandbox_key) AND bytes <= 0;
  END;
  `,
];
