import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';
import { SERVER_CARD_PATHS } from '../../functions/mcp/server-identity.ts';

/**
 * The Agent-Friendly Docs Spec's own checker (afdocs, pinned in devDependencies) against the
 * built site, as an agent platform would scan it. Every finding it reports must stand in the
 * table of accepted findings in docs/features.md, and every row of that table must still be found: the
 * table is where each is explained (all are machine documents that afdocs counts as pages), and
 * this test keeps it true. A finding on an HTML page or a Markdown twin that is not in the table
 * fails the test. Sampling is deterministic and the link limit above llms.txt's links, so every
 * link and the same pages are checked on every run and the findings do not change between runs.
 */

const run = promisify(execFile);
/** The canonical origin the build wrote into every link; afdocs maps it onto the test server. */
const SITE = 'http://localhost:4321';

interface PageResult {
  url?: string;
  status?: string;
  found?: boolean;
  samples?: { url: string; resolvedUrl?: string; outcome: string; status?: number; error?: string }[];
}
interface CheckResult {
  id: string;
  status: 'pass' | 'warn' | 'fail' | 'skip' | 'error';
  message: string;
  details?: { pageResults?: PageResult[] };
}
interface Report {
  results: CheckResult[];
  scoring: { overall: number; grade: string };
}

let server: RunningServer;
let report: Report;

/**
 * afdocs gives up on a response after 15 s by default and then reports the link as broken, which a
 * busy machine can cause on its own; the server here is local, so a wait that long means load, not
 * a fault of the site. It also waits 200 ms between requests by default, to be gentle with a site
 * on the internet: against this local server that is only idle time (most of the scan's), so
 * there is no pause; its three requests at a time stay.
 */
function patientConfig(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'afdocs-')), 'agent-docs.config.yml');
  writeFileSync(file, `url: ${SITE}\noptions:\n  requestTimeout: 120000\n  requestDelay: 0\n`);
  return file;
}

beforeAll(async () => {
  // afdocs is one scanner on one address; the per-client connection cap, which refuses a fetch
  // outright, is tested in connections.test.ts and kept out of the way here.
  server = await startServer({ MAX_CONNECTIONS_PER_CLIENT: '100000' });
  const { stdout } = await run(
    path.join(ROOT, 'node_modules/.bin/afdocs'),
    [
      'check',
      server.baseUrl,
      '--config',
      patientConfig(),
      '--canonical-origin',
      SITE,
      '--sampling',
      'deterministic',
      '--max-links',
      '500',
      '--format',
      'json',
      '--score',
      '--quiet',
    ],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => {
    // afdocs exits 1 when any check fails; its report is on stdout either way.
    if (error.stdout === undefined || error.stdout === '') throw error;
    return { stdout: error.stdout };
  });
  report = JSON.parse(stdout) as Report;
  await recheckTransportFailures(report);
  process.stdout.write(`afdocs: ${report.scoring.overall}/100 (${report.scoring.grade})\n`);
}, 120_000);
afterAll(() => server.stop());

/**
 * afdocs counts a link whose fetch failed before any answer (`fetch-error`, "fetch failed") as
 * broken. On a busy machine its own connections to the local server fail now and then, always
 * on the same few sampled links, while every HTTP answer is right. Such links are fetched again
 * here: a page all of whose broken samples now answer 2xx passes, and a check left with no
 * flagged page passes. Any link that answers with an error, or fails again, stays broken.
 */
async function recheckTransportFailures(scan: Report): Promise<void> {
  const flagged = (check: CheckResult) =>
    (check.details?.pageResults ?? []).filter((page) => page.status === 'fail' || page.status === 'warn');
  for (const check of scan.results) {
    const before = flagged(check);
    for (const page of before) {
      const broken = (page.samples ?? []).filter((sample) => sample.outcome !== 'ok');
      if (broken.length === 0 || broken.some((sample) => sample.outcome !== 'fetch-error')) continue;
      const answers = await Promise.all(
        broken.map((sample) => fetch(sample.resolvedUrl ?? sample.url).catch(() => null)),
      );
      if (answers.every((answer) => answer?.ok === true)) {
        for (const sample of broken) sample.outcome = 'ok';
        page.status = 'pass';
        process.stdout.write(`afdocs: ${check.id} ${page.url}: fetched again, ${broken.length} link(s) answer\n`);
      }
    }
    if (before.length > 0 && flagged(check).length === 0) check.status = 'pass';
  }
}

/** `check path` for every page a check flags (failed, warned, or missing what it looks for). */
function findings(): Set<string> {
  const flagged = new Set<string>();
  for (const check of report.results) {
    if (check.status !== 'fail' && check.status !== 'warn') continue;
    const pages = (check.details?.pageResults ?? []).filter(
      (page) => page.status === 'fail' || page.status === 'warn' || page.found === false,
    );
    // A check about llms.txt as a whole names no page: it stands for the document itself.
    if (pages.length === 0) flagged.add(`${check.id} /llms.txt`);
    for (const page of pages) flagged.add(`${check.id} ${new URL(page.url!).pathname}`);
  }
  return flagged;
}

/** Every sampled link afdocs found broken, with why: what a failure message needs to be acted on. */
function brokenSamples(): string {
  const broken = report.results.flatMap((check) =>
    (check.details?.pageResults ?? []).flatMap((page) =>
      (page.samples ?? [])
        .filter((sample) => sample.outcome !== 'ok')
        .map(
          (sample) => `${check.id} ${page.url}: ${sample.url} ${sample.outcome} ${sample.status ?? sample.error ?? ''}`,
        ),
    ),
  );
  return broken.length === 0 ? 'no broken link samples' : broken.join('\n');
}

/** The table of accepted findings in docs/features.md: `| \`check\` | \`/path\` | why |`. */
function acceptedInDocs(): Set<string> {
  const doc = readFileSync(path.join(ROOT, 'docs/features.md'), 'utf8');
  const section = /## Accepted afdocs findings\n([\s\S]*?)(?=\n#{1,3} |$)/.exec(doc)?.[1];
  if (section === undefined) throw new Error('docs/features.md has no "Accepted afdocs findings" section');
  return new Set([...section.matchAll(/^\| `([a-z-]+)` \| `([^`]+)` \|/gm)].map((row) => `${row[1]} ${row[2]}`));
}

describe('afdocs (Agent-Friendly Docs Spec) on the built site', () => {
  it('reports nothing but the findings docs/features.md lists and explains, and each of those still occurs', () => {
    expect([...findings()].sort(), brokenSamples()).toEqual([...acceptedInDocs()].sort());
  });

  it('flags no HTML page or Markdown twin with a failing check', () => {
    const pagesFailing = report.results.flatMap((check) =>
      (check.details?.pageResults ?? [])
        .filter((page) => page.status === 'fail' || page.found === false)
        .map((page) => new URL(page.url!).pathname)
        // Documents, not pages: by extension, under /.well-known/, or a server card beside its endpoint.
        .filter(
          (pathname) =>
            !/\.(json|yaml|txt)$/.test(pathname) &&
            !pathname.startsWith('/.well-known/') &&
            !SERVER_CARD_PATHS.includes(pathname),
        )
        .map((pathname) => `${check.id} ${pathname}`),
    );
    expect(pagesFailing, brokenSamples()).toEqual([]);
  });

  it('finds every llms.txt link that is not Markdown among the machine documents', async () => {
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    const machineSection = /## Machine-readable documents\n([\s\S]*?)\n## /.exec(llms)?.[1] ?? '';
    const optional = /## Optional\n([\s\S]*)$/.exec(llms)?.[1] ?? '';
    const mcp = /## MCP\n([\s\S]*?)\n## /.exec(llms)?.[1] ?? '';
    const notMarkdown = [...llms.matchAll(/\]\((http[^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((url) => url.startsWith(SITE) && !new URL(url).pathname.endsWith('.md'));
    expect(notMarkdown.length).toBeGreaterThan(0);
    for (const url of notMarkdown) expect(machineSection + optional + mcp, url).toContain(`](${url})`);
  });
});
