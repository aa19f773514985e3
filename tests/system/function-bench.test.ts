import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../support/engines.ts';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);

/** The targets whose warm figures `npm run bench:functions` promises (docs/performance.md). */
const TARGETS = [
  'Node server',
  'function (fetch handler in node:http)',
  'Worker in workerd, straight to PostgreSQL',
  'Worker in workerd, through PgBouncer (transaction mode)',
  "bare Worker in workerd (the read's bytes to every request, nothing else)",
];

/** Every figure of a group, by name, and the names the bench promises for it. */
const GROUPS: Record<string, string[]> = {
  coldStartMs: ['functionLoadToAnswer', 'functionSpawnToAnswer', 'nodeServerSpawnToAnswer'],
  firstRequestCpuMs: ['functionFirstRequest', 'functionModuleLoad', 'nodeServerFirstRequest'],
  connectionsPerInstance: ['concurrentPosts', 'idle', 'peak'],
  coldThroughProxy: ['allAnsweredMs', 'cpuMs', 'instances', 'oneInstanceAloneMs', 'peakConnections', 'processes'],
  coldOnSmallDatabase: ['allAnsweredMs', 'cpuMs', 'instances', 'maxConnections', 'peakConnections', 'processes'],
  quotas: ['acceptedRedisStopped', 'acceptedWithoutRedis', 'limit', 'posts'],
};

const isFigure = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * `npm run bench:functions` in its short mode (BENCH_SHORT=1: one cold start of each, a few
 * requests, bursts of 10 cold instances), on the run's build (the npm script builds first; this runs what it runs then), with
 * its own PostgreSQL (and a small one), PgBouncer and Redis. It must finish and give every figure it promises; the figures
 * themselves are the bench's to report, not this test's to judge.
 */
describe.skipIf(TEST_ENGINE !== 'shared')('npm run bench:functions, short', () => {
  it('runs to the end and reports every figure as a number', { timeout: 600_000 }, async () => {
    const figuresFile = path.join(mkdtempSync(path.join(tmpdir(), 'portfolio-bench-figures-')), 'figures.json');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/functions.ts'], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SHORT: '1', BENCH_JSON: figuresFile },
      timeout: 540_000,
      maxBuffer: 16 * 1024 * 1024,
    });

    const figures = JSON.parse(readFileSync(figuresFile, 'utf8')) as Record<string, Record<string, unknown>> & {
      warm: Record<string, unknown>[];
      bundles: Record<string, unknown>[];
    };
    for (const [group, names] of Object.entries(GROUPS)) {
      const values = figures[group] ?? {};
      expect(
        Object.keys(values)
          .filter((name) => name !== 'statuses')
          .sort(),
        group,
      ).toEqual(names);
      for (const name of names) expect(isFigure(values[name]), `${group}.${name}`).toBe(true);
    }
    // The bursts count their answers by kind and status ("contact 200"): at least one kind, each a count.
    for (const group of ['coldThroughProxy', 'coldOnSmallDatabase']) {
      const statuses = Object.values(figures[group]?.statuses ?? {});
      expect(statuses.length, `${group}.statuses`).toBeGreaterThan(0);
      for (const count of statuses) expect(isFigure(count), `${group}.statuses`).toBe(true);
    }
    expect(figures.warm.map(({ target }) => target)).toEqual(TARGETS);
    for (const row of figures.warm)
      for (const name of ['readMedianMs', 'readP95Ms', 'writeMedianMs', 'writeP95Ms', 'readCpuMs', 'writeCpuMs'])
        expect(isFigure(row[name]), `${String(row.target)} ${name}`).toBe(true);
    expect(figures.bundles.length).toBeGreaterThan(0);
    for (const bundle of figures.bundles)
      expect([isFigure(bundle.bytes), isFigure(bundle.gzipBytes)]).toEqual([true, true]);

    // The printed report carries the same figures.
    const number = String.raw`\d+(?:\.\d+)?`;
    expect(stdout).toMatch(
      new RegExp(
        `function spawn→first answer ${number} \\(module load→first answer ${number}\\); Node server spawn→first answer ${number}`,
      ),
    );
    expect(stdout).toMatch(
      new RegExp(
        `function module load ${number} .*first GET /api/v1/projects ${number} .*Node server first GET /api/v1/projects after its start ${number}`,
      ),
    );
    for (const target of TARGETS) {
      const row = stdout.split('\n').find((line) => line.startsWith(`| ${target} |`));
      expect(row, target).toMatch(
        new RegExp(`\\| ${number} / ${number} \\| ${number} \\| ${number} / ${number} \\| ${number} \\|$`),
      );
    }
    expect(stdout).toMatch(
      new RegExp(`connections of one warm function instance: at most ${number} .*, ${number} one second`),
    );
    expect(stdout).toMatch(new RegExp(`cold instances at once, a contact post each, .*all answered in ${number} ms`));
    expect(stdout).toMatch(new RegExp(`cold instances at once on a database with max_connections = ${number}`));
    expect(stdout).toMatch(
      new RegExp(`without Redis ${number} accepted .* Redis stopped before the posts ${number} accepted`),
    );
  });
});
