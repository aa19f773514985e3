import { describeContents } from './backup/backup-file.ts';
import { makeBackup } from './backup/make-backup.ts';
import { fileCommandOptions, PG_DUMP, PG_RESTORE } from './backup/owners-path.ts';
import { loadServiceConfig, requireDatabase } from './service-config.ts';

const USAGE = `Usage: npm run backup -- [options] <file>

Writes a backup of the service's SQLite state (DATA_DIR) to <file>: a consistent copy of the
database, taken while the service runs and without stopping it, plus the cursor and token
signing secrets, so cursors and tokens issued before keep verifying after a restore. The backup
is one SQLite file, readable only by you (mode 0600); \`npm run restore -- <file>\` puts it back.

With DATABASE_URL set the state is in PostgreSQL, which has its own tools: see below.

  --force             replace <file> if it exists (by default an existing file is never overwritten)
  --env-file <file>   read the service's settings (DATA_DIR, DATABASE_URL) from its environment
                      file, as systemd does: npm run backup -- --env-file /etc/portfolio/portfolio.env <file>
  --help              this text

PostgreSQL (DATABASE_URL) has its own tools. Back up with
  ${PG_DUMP}
readable by you alone (it holds the signing secrets and the visitors' details); to put it back,
  ${PG_RESTORE}.`;

async function main(): Promise<void> {
  const options = fileCommandOptions(USAGE);
  if (options === null) return;
  // On PostgreSQL no file name helps: say so first, so a bare `npm run backup` points to pg_dump.
  const service = loadServiceConfig(options.envFile);
  const { config } = service;
  if (config.databaseUrl !== null) {
    throw new Error(
      'DATABASE_URL is set: the state is in PostgreSQL, which this command does not back up. Use its own tools: ' +
        `${PG_DUMP}, so that only you can read it (to put it back: ${PG_RESTORE}). ` +
        'The signing secrets are in its app_secrets table, so the dump holds them too.',
    );
  }
  if (options.file === undefined) throw new Error('Name one file to write the backup to.');
  requireDatabase(service, 'backup');
  const { file } = options;
  const { database, contents } = await makeBackup(config.dataDir, file, { force: options.force });
  process.stdout.write(`Backed up ${database} to ${file}:\n  ${describeContents(contents)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n(npm run backup -- --help for usage)\n`,
    );
    process.exit(1);
  });
}
