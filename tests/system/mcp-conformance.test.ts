import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { toolsNode } from '../support/tool-node.ts';

// The official MCP conformance suite, pinned in package.json, is an MCP client of its own: it runs
// every scenario a requirement set scores against the real server, at that revision's wire (the
// initialize handshake for 2025-11-25, per-request _meta for 2026-07-28). With --expected-failures
// it exits 0 only when every check outside the baseline passes (a warning counts as a failure)
// and no check in the baseline passes (a stale entry).

const SUITE = path.join(ROOT, 'node_modules/.bin/conformance');
const REQUIREMENTS = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/requirements');
const BASELINES = path.join(ROOT, 'tests/fixtures/mcp-conformance');

const SERVERS = [
  { id: 'product', endpoint: '/mcp' },
  { id: 'docs', endpoint: '/mcp/docs' },
];
const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'];
const RUNS = SERVERS.flatMap((server) => REQUIREMENT_SETS.map((set) => ({ ...server, set })));

/** Hang-catchers only: the four runs take seconds together. A run is stopped before its test times out. */
const RUN_DEADLINE_MS = 240_000;
const TEST_DEADLINE_MS = 300_000;

interface SuiteOutcome {
  code: number | null;
  output: string;
}

let service: InProcessService;
const outcomes = new Map<string, Promise<SuiteOutcome>>();

function baselineFile(id: string, set: string): string {
  return path.join(BASELINES, `${id}-${set}.yaml`);
}

/** One run of the suite's CLI in its own process; its per-scenario results go to a temporary folder. */
function runSuite(endpoint: string, set: string, baseline: string): Promise<SuiteOutcome> {
  const results = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
  const args = ['server', '--url', `${service.baseUrl}${endpoint}`, '--requirements', set];
  return new Promise((resolve) => {
    execFile(
      toolsNode(),
      [SUITE, ...args, '--expected-failures', baseline, '-o', results],
      { cwd: ROOT, timeout: RUN_DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        rmSync(results, { recursive: true, force: true });
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, output: stripVTControlCharacters(`${stdout}\n${stderr}`) });
      },
    );
  });
}

function outcomeOf(id: string, set: string): Promise<SuiteOutcome> {
  const outcome = outcomes.get(`${id}-${set}`);
  if (outcome === undefined) throw new Error(`the suite was not started for ${id} ${set}`);
  return outcome;
}

/** The scenarios a requirement set scores, as the pinned suite ships them. */
function scoredScenarios(set: string): string[] {
  return (parse(readFileSync(path.join(REQUIREMENTS, `${set}.yaml`), 'utf8')) as { server: string[] }).server;
}

beforeAll(async () => {
  // Every MCP message counts against the client's quota, and the four runs send hundreds from one address.
  service = await startService({ READ_RATE_LIMIT: '100000/60' });
  for (const { id, endpoint, set } of RUNS)
    outcomes.set(`${id}-${set}`, runSuite(endpoint, set, baselineFile(id, set)));
});
afterAll(async () => {
  await Promise.all(outcomes.values());
  await service?.stop();
});

describe.each(RUNS)('the conformance suite on $endpoint, requirement set $set', ({ id, set }) => {
  it(
    'fails only the baseline: every other check passes and no baselined check does',
    { timeout: TEST_DEADLINE_MS },
    async () => {
      const { code, output } = await outcomeOf(id, set);
      // The verdict (expected, stale and unexpected entries) is at the end of the suite's output.
      expect(code, output.split('\n').slice(-80).join('\n')).toBe(0);
      expect(output).toContain(`Running requirements ${set}`);
      expect(output).toContain('Baseline check passed: all failures are expected.');
    },
  );

  it('baselines only scored scenarios, each entry with its reason', () => {
    const text = readFileSync(baselineFile(id, set), 'utf8');
    const entries = (parse(text) as { server: string[] }).server;
    expect(entries.length).toBeGreaterThan(0);
    // The suite ignores an entry whose scenario it does not run, so such an entry could never go stale.
    const scored = scoredScenarios(set);
    for (const entry of entries) expect(scored, entry).toContain(entry.split(':')[0]);
    const entryLines = text.split('\n').filter((line) => line.trimStart().startsWith('- '));
    expect(entryLines).toHaveLength(entries.length);
    for (const line of entryLines) expect(line, 'an entry without its reason').toMatch(/ # \S.*$/);
  });
});
