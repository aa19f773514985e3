import { parseArgs } from 'node:util';
import { copyIntoPostgres, type CopyReport } from './data-copy/copy-into-postgres.ts';
import { SECRET_NAMES, SIGNED_WITH } from '../state/storage.ts';
import { readSqliteSource } from './data-copy/sqlite-source.ts';
import { ENV_FILE_OPTION, loadServiceConfig, ownersPath } from './service-config.ts';

const USAGE = `Usage: DATABASE_URL=postgres://... npm run data:copy -- [options]

Copies the state of a single instance on SQLite (DATA_DIR) into the PostgreSQL at DATABASE_URL,
so that the instances sharing it start where it stopped: every contact message with its id,
read mark and delivery state per channel; the test keys; the Idempotency-Key answers not yet
expired; and the cursor and token signing secrets, so cursors and tokens issued before keep working.
Jobs are not copied: they live minutes and belong to the process running them; let them finish.

Stop the SQLite instance first. The copy is one transaction and may be run again: rows already
in PostgreSQL are skipped. If PostgreSQL holds other rows under the same ids (other instances
have written to it), nothing is copied and the command exits 1.

  --data-dir <dir>    the SQLite instance's data directory (default: DATA_DIR, else ./data)
  --env-file <file>   read DATA_DIR and DATABASE_URL from an environment file, as systemd does
                      (values in the file win over the environment's)
  --dry-run           compare and report what would be copied; write nothing
  --replace-secrets   overwrite signing secrets PostgreSQL already holds with other values
                      (by default PostgreSQL's are kept, and what the SQLite instance signed
                      stops verifying)
  --help              this text`;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'replace-secrets': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      ...ENV_FILE_OPTION,
    },
    strict: true,
  });
  return values;
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { config } = loadServiceConfig(options['env-file']);
  if (config.databaseUrl === null) {
    throw new Error(
      'DATABASE_URL is not set: set it to the PostgreSQL to copy into (postgres://user:password@host/db).',
    );
  }
  const dataDir = options['data-dir'] === undefined ? config.dataDir : ownersPath(options['data-dir']);
  const source = await readSqliteSource(dataDir, Date.now());
  const report = await copyIntoPostgres(config.databaseUrl, source, {
    dryRun: options['dry-run'],
    replaceSecrets: options['replace-secrets'],
  });
  process.stdout.write(
    summary(source.file, report, { dryRun: options['dry-run'], replaceSecrets: options['replace-secrets'] }),
  );
  const warnings = secretWarnings(report, options['replace-secrets'], options['dry-run']);
  for (const warning of warnings) process.stderr.write(`${warning}\n`);
}

/** One line of the summary: a table, how many rows were (or would be) copied, and how many were there. */
interface Line {
  name: string;
  copied: number;
  present: number;
  /** Of the rows present, how many PostgreSQL holds otherwise, and what was done about it. */
  note: string | null;
}

function lines({ tables, secrets }: CopyReport, replaceSecrets: boolean): Line[] {
  const rows = tables.map((plan) => ({
    name: plan.copy.table,
    copied: plan.missing.length,
    present: plan.present,
    note: plan.movedOn > 0 ? `${plan.movedOn} of them changed since in PostgreSQL: its state kept` : null,
  }));
  const differing = secrets.differing.size;
  const secretLine = replaceSecrets
    ? { copied: secrets.missing.size + differing, present: secrets.present.length, note: null }
    : {
        copied: secrets.missing.size,
        present: secrets.present.length + differing,
        note: differing > 0 ? `${differing} of them different: PostgreSQL's kept` : null,
      };
  return [...rows, { name: 'secrets', ...secretLine }];
}

/** Per table: copied (or to copy, on a dry run) and already present. */
function summary(file: string, report: CopyReport, options: { dryRun: boolean; replaceSecrets: boolean }): string {
  const table = lines(report, options.replaceSecrets);
  const head = options.dryRun
    ? `Dry run, nothing written. From ${file} to ${report.location}:`
    : table.every((line) => line.copied === 0)
      ? `Nothing to copy: ${report.location} already holds everything in ${file}.`
      : `Copied ${file} to ${report.location}:`;
  const verb = options.dryRun ? 'to copy' : 'copied';
  const body = table.map(
    ({ name, copied, present, note }) =>
      `  ${name.padEnd(12)} ${copied} ${verb}, ${present} already present${note === null ? '' : ` (${note})`}`,
  );
  return [head, ...body, '  jobs         not copied (short-lived)', ''].join('\n');
}

/** What the owner must know about secrets: one DATA_DIR never made, or one PostgreSQL holds already. */
function secretWarnings({ secrets }: CopyReport, replaceSecrets: boolean, dryRun: boolean): string[] {
  const known = new Set([...secrets.missing.keys(), ...secrets.present, ...secrets.differing.keys()]);
  const never = SECRET_NAMES.filter((name) => !known.has(name));
  return [
    ...never.map((name) => `Note: DATA_DIR has no ${name} secret (the instance never made one); PostgreSQL's is used.`),
    ...[...secrets.differing.keys()].map((name) =>
      replaceSecrets
        ? `${dryRun ? 'Would replace' : 'Replaced'} PostgreSQL's ${name} secret with the SQLite instance's: restart the instances already running on ` +
          'PostgreSQL, and what they signed with the old one stops verifying.'
        : `Warning: PostgreSQL already has another ${name} secret, and keeps it: ${SIGNED_WITH[name]} ` +
          "issued by the SQLite instance stop verifying. Run with --replace-secrets to use the SQLite instance's instead.",
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n(npm run data:copy -- --help for usage)\n`,
    );
    process.exit(1);
  });
}
