import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** Debian's pgbouncer, which `.ci/run` installs. */
const PGBOUNCER = '/usr/sbin/pgbouncer';
export const HAS_PGBOUNCER = existsSync(PGBOUNCER);

/** A throwaway PgBouncer on loopback in transaction mode, in front of one PostgreSQL. */
export interface ThrowawayPgBouncer {
  /** The URL of `database` through PgBouncer: the PostgreSQL URL given, with PgBouncer's port. */
  urlOf(databaseUrl: string): string;
  port: number;
  /** What PgBouncer logged so far (connections, and every error it sent a client). */
  log(): string;
  /** A setting as the running PgBouncer has it (its admin console's SHOW CONFIG). */
  setting(name: string): Promise<string | undefined>;
  /** Stops it (immediate shutdown) and deletes its directory. */
  stop(): Promise<void>;
}

/**
 * PgBouncer refuses to run as root, as PostgreSQL does: as root it switches to the `postgres`
 * user of the Debian package (its `-u` option), on a directory that user owns
 * (tests/support/postgres.ts runs PostgreSQL the same way).
 */
const asRoot = process.getuid?.() === 0;

/**
 * The ini of a PgBouncer that hands each transaction any server connection (`pool_mode =
 * transaction`), as Neon's and Supabase's pooled URLs and Hyperdrive do, so that session state
 * (a `SET`, a session advisory lock, a named prepared statement) does not survive between
 * transactions. `ignore_startup_parameters` is left empty on purpose: a client that sends any
 * session parameter beyond the few PgBouncer tracks itself (client_encoding, DateStyle, TimeZone,
 * standard_conforming_strings, application_name), `statement_timeout` say, is refused with
 * "unsupported startup parameter". Any database name goes to the same server (`*`), with the
 * client's user, which the test PostgreSQL trusts, and so does PgBouncer (`auth_type = trust`:
 * the user must still be listed in the auth file), who may also use the admin console.
 */
function ini(dir: string, port: number, server: URL): string {
  return `[databases]
* = host=${server.hostname} port=${server.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
logfile = ${path.join(dir, 'pgbouncer.log')}
auth_type = trust
auth_file = ${path.join(dir, 'userlist.txt')}
admin_users = ${decodeURIComponent(server.username)}
pool_mode = transaction
ignore_startup_parameters =
max_client_conn = 1000
default_pool_size = 10
`;
}

/**
 * Starts PgBouncer as a child of this process (not daemonized, so that this process reaps it),
 * with an ini and user list of its own in a temp directory and a free port, so it never meets
 * the package's own service (`/etc/pgbouncer`, port 6432), and waits until it answers a query.
 * `serverUrl` is the PostgreSQL it stands in front of (its admin URL: the user and host are
 * taken from it).
 */
export async function startPgBouncer(serverUrl: string): Promise<ThrowawayPgBouncer> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-pgbouncer-'));
  const port = await freePort();
  const iniFile = path.join(dir, 'pgbouncer.ini');
  const userList = path.join(dir, 'userlist.txt');
  const logFile = path.join(dir, 'pgbouncer.log');
  writeFileSync(iniFile, ini(dir, port, server));
  writeFileSync(userList, `"${decodeURIComponent(server.username)}" ""\n`);
  if (asRoot) {
    const user = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const group = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    for (const file of [dir, iniFile, userList]) chownSync(file, user, group);
  }
  // It logs to its log file and to stderr: the file is enough.
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), iniFile], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  // A test run that ends without its teardown must not leave PgBouncer behind.
  const stopAtExit = () => child.kill('SIGKILL');
  process.once('exit', stopAtExit);

  const urlOf = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  // The deadline only catches a PgBouncer that never starts: a busy machine may take long.
  for (const deadline = Date.now() + 60_000; ;) {
    const client = new pg.Client({ connectionString: urlOf(serverUrl) });
    try {
      await client.connect();
      await client.query('SELECT 1');
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`PgBouncer did not answer: ${String(error)}\n${log()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  const setting = async (name: string) => {
    const url = new URL(urlOf(serverUrl));
    url.pathname = '/pgbouncer';
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      // The admin console speaks only the simple query protocol: a query without parameters.
      const { rows } = await client.query<{ key: string; value: string }>('SHOW CONFIG');
      return rows.find((row) => row.key === name)?.value;
    } finally {
      await client.end();
    }
  };

  return {
    urlOf,
    port,
    log,
    setting,
    stop: async () => {
      process.off('exit', stopAtExit);
      // SIGTERM is PgBouncer's immediate shutdown.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
