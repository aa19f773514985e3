import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './free-port.ts';
import { createPool, MIGRATION_POOL } from '../../functions/state/postgres/pg-driver.ts';
import { runMigrations } from '../../functions/state/postgres/run-migrations.ts';

const run = promisify(execFile);

/** Debian's postgresql-15, which `.ci/run` installs. */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
export const HAS_POSTGRES = existsSync(path.join(POSTGRES_BIN, 'initdb'));

/**
 * How long a pool opened on a test URL waits for a connection, in seconds: the URL's
 * connect_timeout, which functions/state/postgres/pg-driver.ts honours. Its default of 3 s ran
 * out on a loaded machine while 50 concurrent claims queued for connections; a hang is still
 * caught by the tier's test timeout.
 */
const CONNECT_TIMEOUT_S = 60;

/** A throwaway PostgreSQL on loopback: its own port and data directory, trust authentication. */
export interface ThrowawayPostgres {
  /** The admin URL (user postgres, database postgres). */
  url: string;
  port: number;
  /** Stops it, as an outage would; the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** A new empty database on this server; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops it and deletes its data directory. */
  destroy(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root, so as root its programs run as the `postgres` user that the
 * Debian package creates, on a directory that user owns; otherwise they run as the current user.
 */
const asRoot = process.getuid?.() === 0;

function command(program: string, args: string[]): [string, string[]] {
  const file = path.join(POSTGRES_BIN, program);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

/** What a throwaway server is started with. */
interface PostgresOptions {
  /**
   * Its max_connections: 200 by default, room for every test at once; a test of how the service
   * behaves when the database is full gives a small number, as a free tier's (superuser
   * connections, the tests' own, may use the 3 reserved slots as well).
   */
  maxConnections?: number;
  /** Further server settings (`-c name=value`), e.g. a bench's shared_preload_libraries=pg_stat_statements. */
  settings?: Record<string, string>;
}

/** initdb, then pg_ctl start (about 1.5 s); stop() is pg_ctl's fast shutdown. */
export async function startPostgres({
  maxConnections = 200,
  settings = {},
}: PostgresOptions = {}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-pg-'));
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const group = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(ids), Number(group));
  }
  const port = await freePort();
  await run(...command('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C']));
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=${maxConnections}${Object.entries(
    settings,
  )
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join('')}`;
  const running = () => existsSync(path.join(dir, 'postmaster.pid'));
  const start = async () => {
    await run(
      ...command('pg_ctl', ['-D', dir, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']),
    );
  };
  const stop = async () => {
    if (running()) await run(...command('pg_ctl', ['-D', dir, '-m', 'fast', '-w', '-t', '60', 'stop']));
  };
  // A test run that ends without its teardown (a crash, an interrupt) must not leave the server behind.
  const stopAtExit = () => {
    if (!running()) return;
    try {
      execFileSync(...command('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    } catch {
      // Already stopping; nothing else to do at exit.
    }
  };
  process.once('exit', stopAtExit);
  await start();
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres?connect_timeout=${CONNECT_TIMEOUT_S}`;
  return {
    url,
    port,
    stop,
    start,
    createDatabase: () => createDatabase(url),
    destroy: async () => {
      await stop();
      process.off('exit', stopAtExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CREATE DATABASE with a name of its own on the server at `adminUrl`; returns the new database's URL. */
async function createDatabase(adminUrl: string): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the run's shared PostgreSQL (tests/support/postgres-global-setup.ts); '' without PostgreSQL. */
    postgresUrl: string;
  }
}

/** A new empty database on the run's shared PostgreSQL, for a test that needs the engine but no outage. */
export function freshDatabaseUrl(): Promise<string> {
  const adminUrl = inject('postgresUrl');
  if (adminUrl === '') throw new Error('No PostgreSQL in this run: check HAS_POSTGRES first');
  return createDatabase(adminUrl);
}

/** Brings the database at `url` to this build's schema, as `npm run migrate` does from a deploy step. */
export async function migrateDatabase(url: string): Promise<void> {
  const pool = await createPool(url, MIGRATION_POOL);
  try {
    await runMigrations(pool, url);
  } finally {
    await pool.end();
  }
}
