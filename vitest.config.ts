import { defineConfig } from 'vitest/config';

/**
 * Three tiers, each with timeouts that only catch hangs at its own scale (a shared 2-core
 * machine can run a test several times slower than a quiet one, and must not fail for that):
 *
 * - unit: pure logic, no I/O beyond temp files;
 * - api: the router, the contact form, the search page and both MCP servers in process on a fresh
 *   DATA_DIR (tests/support/api.ts), with real SQLite;
 * - api-shared: the stateful files of api again, on PostgreSQL and Redis (tests/support/engines.ts);
 * - system: the production service over real sockets, in process where only its HTTP matters
 *   (tests/support/service.ts: static files, headers, connections) and as the compiled entry in a
 *   child process where the process is tested (kill -9, SIGTERM, full or read-only disks, the log,
 *   config errors, other Node.js versions, nginx in front); the owner's commands, Chromium,
 *   Lighthouse, afdocs, Prism and the MCP Inspector.
 *
 * - system-shared: the stateful files of system again, on PostgreSQL and Redis, plus the
 *   multi-instance suite.
 *
 * One PostgreSQL and one Redis serve the whole run (the global setups); each deployment a test
 * starts gets a database of its own on them. `npx vitest run --project <name>` runs one tier.
 */

/** The servers every stateful project may use; tests that stop a server start their own. */
const SHARED_SERVERS = ['tests/support/postgres-global-setup.ts', 'tests/support/redis-global-setup.ts'];

/** Test files of capabilities that keep state (contact, idempotency, quotas, keys, tokens, jobs, batch, inbox, notifier). */
const STATEFUL_API = [
  'tests/api/contact-api.test.ts',
  'tests/api/contact-delivery.test.ts',
  'tests/api/contact-notify.test.ts',
  'tests/api/contact-spam.test.ts',
  'tests/api/jobs.test.ts',
  'tests/api/sandbox-keys.test.ts',
  'tests/api/batch.test.ts',
  'tests/api/mcp-product.test.ts',
  'tests/api/mcp-eras-product.test.ts',
];
const STATEFUL_SYSTEM = [
  'tests/system/contact-delivery.test.ts',
  'tests/system/contact-notify.test.ts',
  'tests/system/contact-process.test.ts',
];
/**
 * expect.poll gives up after 1 s by default; on a loaded machine a page or a job can take longer
 * to get there, and only a hang should fail. Each project sets it: projects do not inherit.
 */
const POLL = { poll: { timeout: 30_000 } };
/** Every tier's: the data folders a test file made are removed once it has run. */
const SETUP_FILES = ['tests/support/remove-data-dirs.ts'];

export default defineConfig({
  test: {
    // Two workers suit a 2-core machine; each system file starts its own server.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          expect: POLL,
          setupFiles: SETUP_FILES,
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: SHARED_SERVERS,
          expect: POLL,
          setupFiles: SETUP_FILES,
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api-shared',
          include: STATEFUL_API,
          globalSetup: SHARED_SERVERS,
          env: { TEST_ENGINE: 'shared' },
          expect: POLL,
          setupFiles: SETUP_FILES,
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'system',
          include: ['tests/system/**/*.test.ts', 'tests/browser/**/*.test.ts'],
          exclude: ['tests/system/multi-instance*.test.ts'],
          globalSetup: SHARED_SERVERS,
          expect: POLL,
          setupFiles: SETUP_FILES,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'system-shared',
          include: [...STATEFUL_SYSTEM, 'tests/system/multi-instance*.test.ts', 'tests/system/function-*.test.ts'],
          globalSetup: SHARED_SERVERS,
          env: { TEST_ENGINE: 'shared' },
          expect: POLL,
          setupFiles: SETUP_FILES,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
