import { parseArgs } from 'node:util';
import { redactUrl } from '../config/redact-url.ts';
import { MIGRATIONS } from '../state/postgres/migrations.ts';
import { createPool, MIGRATION_POOL } from '../state/postgres/pg-driver.ts';
import { runMigrations } from '../state/postgres/run-migrations.ts';
import { ENV_FILE_OPTION, loadServiceConfig } from './service-config.ts';

const USAGE = `Usage: npm run migrate [-- --env-file <file>]

Brings the PostgreSQL schema at DATABASE_URL up to date with this version of the service, once,
however many run it at the same time (they wait for each other, at most a minute). A function
deployment (Netlify, Vercel, Cloudflare) runs it from its build or deploy step: its instances
only check the schema, and answer 503 until it is current. The Node server migrates by itself
at start. Without DATABASE_URL there is nothing to do: SQLite is migrated by the service.

  --env-file <file> read the service's settings from its environment file
  --help            this text`;

/** `npm run migrate`: the schema migrations, applied from a build or deploy step rather than at request time. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { ...ENV_FILE_OPTION, help: { type: 'boolean' } } });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { config } = loadServiceConfig(values['env-file']);
  if (config.databaseUrl === null) {
    process.stdout.write('migrate: DATABASE_URL is not set; SQLite is migrated by the service itself.\n');
    return;
  }
  const location = redactUrl(config.databaseUrl);
  const pool = await createPool(config.databaseUrl, MIGRATION_POOL);
  try {
    const applied = await runMigrations(pool, location);
    process.stdout.write(
      applied.length === 0
        ? `migrate: ${location} is at schema version ${MIGRATIONS.length}, current.\n`
        : `migrate: ${location} brought to schema version ${MIGRATIONS.length} (applied ${applied.join(', ')}).\n`,
    );
  } finally {
    await pool.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
