import { defineConfig } from 'vitest/config';

/**
 * Three tiers, each with timeouts that only catch hangs at its own scale (a shared 2-core
 * machine can run a test several times slower than a quiet one, and must not fail for that):
 *
 * - unit: pure logic, no I/O beyond temp files;
 * - api: the router, the contact form, the search page and both MCP servers in process on a fresh
 *   DATA_DIR (tests/support/api.ts), with real SQLite;
 * - system: real child processes (the server under kill -9, SIGTERM, full or read-only disks,
 *   connection limits, static files, config errors; the inbox CLI), Chromium, Prism and the MCP
 *   Inspector.
 *
 * `npx vitest run --project <name>` runs one tier.
 */
export default defineConfig({
  test: {
    // Two workers suit a 2-core machine; each system file starts its own server.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'system',
          include: ['tests/system/**/*.test.ts', 'tests/browser/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
