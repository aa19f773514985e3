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
  'Worker in workerd (wrangler dev, a service per request)',
];

const isFigure = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * `npm run bench:functions` in its short mode (BENCH_SHORT=1: one cold start of each, a few
 * requests), on the run's build (the npm script builds first; this runs what it runs then), with
 * its own PostgreSQL and Redis. It must finish and give every figure it promises; the figures
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

    const figures = JSON.parse(readFileSync(figuresFile, 'utf8')) as {
      coldStartMs: Record<string, unknown>;
      warm: Record<string, unknown>[];
      bundles: Record<string, unknown>[];
    };
    expect(Object.keys(figures.coldStartMs).sort()).toEqual([
      'functionLoadToAnswer',
      'functionSpawnToAnswer',
      'nodeServerSpawnToAnswer',
    ]);
    for (const [name, value] of Object.entries(figures.coldStartMs)) expect(isFigure(value), name).toBe(true);
    expect(figures.warm.map(({ target }) => target)).toEqual(TARGETS);
    for (const row of figures.warm)
      for (const name of ['readMedianMs', 'readP95Ms', 'writeMedianMs', 'writeP95Ms'])
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
    for (const target of TARGETS) {
      const row = stdout.split('\n').find((line) => line.startsWith(`| ${target} |`));
      expect(row, target).toMatch(new RegExp(`\\| ${number} / ${number} \\| ${number} / ${number} \\|$`));
    }
  });
});
