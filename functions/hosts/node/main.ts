import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { flushLog, flushLogOnExit, logEvent } from '../../log/log.ts';
import { PostgresUnreachable } from '../../state/postgres/postgres-storage.ts';
import { POSTGRES_START_WAIT_MS } from '../../state/open-storage.ts';
import { SchemaTooNew } from '../../state/schema-too-new.ts';
import { assertBuildMatches, BuildMismatch } from '../static/build-manifest.ts';
import { BuildMissing, loadBuild } from '../static/build-output.ts';
import { installCrashPolicy } from './crash-policy.ts';
import { startServer, type RunningService } from './start-server.ts';

/**
 * The production entry. The build bundles it into dist/server/portfolio.mjs (scripts/bundle-server.ts),
 * so it runs as compiled JavaScript beside the build output it serves: `node dist/server/portfolio.mjs`.
 * With `--check` it validates the configuration and the build, then exits (0 when both are fine)
 * without listening; scripts/start.mjs asks it before deciding to rebuild.
 */
const DIST = fileURLToPath(new URL('../', import.meta.url));
/** Should draining fail (a broken process after an uncaught exception), exit anyway after this long. */
const EXIT_DEADLINE_MS = 20_000;

function prepare() {
  try {
    const config = loadConfig();
    const build = loadBuild(DIST);
    if (!config.allowBuildMismatch) assertBuildMatches(build.manifest, process.env);
    return { config, build };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BuildMissing || error instanceof BuildMismatch) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const { config, build } = prepare();
if (process.argv.includes('--check')) process.exit(0);

let service: RunningService | undefined;
let shuttingDown = false;

/**
 * Stop accepting, let in-flight requests finish, then exit: 0 after SIGTERM from an
 * orchestrator (or Ctrl-C), 1 after an uncaught exception (see crash-policy.ts).
 */
function shutdown(reason: string, exitCode: number): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logEvent('shutting down', { reason, exitCode });
  process.exitCode = exitCode;
  setTimeout(() => {
    // On stderr: stdout, the log, may be what is broken.
    process.stderr.write(`Draining did not finish within ${EXIT_DEADLINE_MS / 1000} s; exiting without it.\n`);
    process.exit(exitCode);
  }, EXIT_DEADLINE_MS).unref();
  void (service?.close() ?? Promise.resolve()).finally(() => {
    flushLog();
    process.exit(exitCode);
  });
}

flushLogOnExit();
installCrashPolicy(shutdown);
process.once('SIGTERM', () => shutdown('SIGTERM', 0));
process.once('SIGINT', () => shutdown('SIGINT', 0));

try {
  service = await startServer(config, build);
} catch (error) {
  const refusals = [SchemaTooNew, PostgresUnreachable];
  if (!refusals.some((refusal) => error instanceof refusal)) throw error;
  const hint =
    error instanceof PostgresUnreachable
      ? ` (waited ${POSTGRES_START_WAIT_MS / 1000} s). Check DATABASE_URL and that PostgreSQL runs and accepts connections from here.`
      : '';
  process.stderr.write(`${(error as Error).message}${hint}\n`);
  process.exit(1);
}
logEvent('listening', {
  url: service.url,
  port: service.port,
  siteUrl: config.siteUrl,
  builtAt: build.manifest.builtAt,
  // Where state lives and where quotas are counted: what several instances share, and what they do not.
  storage: `${service.api.services.storage.engine} (${service.api.services.storage.location})`,
  quotas: service.api.services.quotas.describe(),
  ...(config.databaseUrl !== null && config.redisUrl === null
    ? {
        warning:
          'DATABASE_URL is set without REDIS_URL: contact, key and form-token quotas are counted in PostgreSQL for every instance, but the read quota per instance, so n instances allow n times the read quota',
      }
    : {}),
});
