import { describeContents } from './backup/backup-file.ts';
import { fileCommandOptions, PG_RESTORE } from './backup/owners-path.ts';
import { restoreBackup } from './backup/restore-backup.ts';
import { loadServiceConfig } from './service-config.ts';

const USAGE = `Usage: npm run restore -- [options] <file>

Puts a backup made by \`npm run backup\` back into DATA_DIR: the database and the cursor and
token signing secrets, readable only by the service's user (mode 0600). Stop the service first
and start it again afterwards. The backup is checked first (SQLite's integrity check, its schema
against its version, its secrets); a damaged one is refused and DATA_DIR is left as it was. A
backup made by an older version is brought up to date when the service starts; one made by a
newer version is refused.

  --force             replace the database and secrets DATA_DIR already holds (they are lost: back
                      them up first); refused while a service has the database open
  --env-file <file>   read the service's settings (DATA_DIR, DATABASE_URL) from its environment
                      file, as systemd does: npm run restore -- --env-file /etc/portfolio/portfolio.env <file>
  --help              this text

PostgreSQL (DATABASE_URL) has its own tools: for a pg_dump,
  ${PG_RESTORE}.`;

async function main(): Promise<void> {
  const options = fileCommandOptions(USAGE);
  if (options === null) return;
  const { config } = loadServiceConfig(options.envFile);
  if (config.databaseUrl !== null) {
    throw new Error(
      'DATABASE_URL is set: the service reads its state from PostgreSQL, not from DATA_DIR, so a restored SQLite ' +
        `backup would not be used. For a pg_dump, ${PG_RESTORE}; ` +
        'to move a SQLite backup into PostgreSQL, restore it into a DATA_DIR without DATABASE_URL, then run npm run data:copy.',
    );
  }
  if (options.file === undefined) throw new Error('Name the backup file to restore.');
  const { database, contents } = await restoreBackup(options.file, config.dataDir, {
    force: options.force,
  });
  process.stdout.write(
    `Restored ${database} and its secrets:\n  ${describeContents(contents)}\nStart the service to use it.\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n(npm run restore -- --help for usage)\n`,
    );
    process.exit(1);
  });
}
