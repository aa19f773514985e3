import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';
import { toolsNode } from '../support/tool-node.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/browser.ts';

/**
 * Lighthouse 13 (pinned in devDependencies) on the key pages of the built site, in Debian's
 * Chromium: accessibility, best practices, SEO and Agentic Browsing (the accessibility tree an
 * agent reads, the page's WebMCP tools and their schemas, layout shifts, llms.txt, and an
 * ai-catalog.json if one is published). Performance is left out: its score depends on how busy
 * the machine is. Every page must score 100 in each category, and whatever Lighthouse still points
 * out must stand, explained, in the table of accepted findings in docs/features.md, which this
 * test keeps equal to what it finds.
 */

const run = promisify(execFile);
/** The categories asserted; each scores 0..1. */
const CATEGORIES = ['accessibility', 'best-practices', 'seo', 'agentic-browsing'] as const;
/**
 * Audits of those categories that measure timing (Agentic Browsing counts layout shifts): a busy
 * machine trips them now and then (seen once on /contact in a loaded run), so they are reported,
 * never asserted, and their category is judged by its other audits.
 */
const TIMED_AUDITS = new Set(['cumulative-layout-shift']);
/** The home page, a project, a documentation page and the two pages with a form and a WebMCP tool. */
const PAGES = ['/', '/projects/anomaly-radar', '/developers', '/contact', '/search'] as const;

interface Audit {
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  errorMessage?: string;
  details?: { items?: unknown[] };
}
interface Report {
  lighthouseVersion: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
}

let server: RunningServer;
let chromium: ChildProcess;
let profile: string;
const reports = new Map<string, Report>();

/**
 * One Chromium for every page, headless, with the WebMCP testing feature on so that Lighthouse sees
 * the tools the pages register (without it the WebMCP audits are silently not applicable).
 * Resolves with its DevTools port once it listens.
 */
function startChromium(): Promise<number> {
  profile = mkdtempSync(path.join(tmpdir(), 'lighthouse-chromium-'));
  chromium = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_FLAGS,
      '--headless=new',
      '--enable-features=WebMCPTesting',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    chromium.once('error', (error) => reject(new Error(`Chromium (${CHROMIUM_PATH}) did not start: ${error.message}`)));
    chromium.once('exit', (code) => reject(new Error(`Chromium exited with ${code} before listening`)));
    createInterface({ input: chromium.stderr! }).on('line', (line) => {
      const listening = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (listening !== null) resolve(Number(listening[1]));
    });
  });
}

/** Runs Lighthouse on Node >= 22.19 against each page in turn, in the shared Chromium (one process for all). */
async function lighthouse(urls: string[], port: number): Promise<Report[]> {
  const { stdout } = await run(
    toolsNode(),
    [
      path.join(ROOT, 'tests/support/lighthouse-pages.mjs'),
      String(port),
      CATEGORIES.join(','),
      // A busy machine loads slowly; the categories asserted here do not depend on how fast.
      '120000',
      ...urls,
    ],
    { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, timeout: 900_000 },
  );
  return JSON.parse(stdout) as Report[];
}

beforeAll(async () => {
  let port: number;
  [server, port] = await Promise.all([startServer({ READ_RATE_LIMIT: '100000/60' }), startChromium()]);
  // The pages name their canonical origin by host name; Lighthouse checks the canonical link's host.
  const origin = server.baseUrl.replace('127.0.0.1', 'localhost');
  const found = await lighthouse(
    PAGES.map((page) => `${origin}${page}`),
    port,
  );
  PAGES.forEach((page, index) => reports.set(page, found[index]!));
  const scores = PAGES.map(
    (page) => `${page} ${CATEGORIES.map((id) => `${id} ${reports.get(page)!.categories[id]?.score}`).join(', ')}`,
  );
  process.stdout.write(`Lighthouse ${reports.get('/')!.lighthouseVersion}:\n${scores.join('\n')}\n`);
}, 900_000);
afterAll(async () => {
  chromium?.kill();
  await server?.stop();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

/**
 * A category's score from its audits that do not measure timing, weighted as Lighthouse weighs
 * them; an audit that does not apply counts for nothing, as in Lighthouse.
 */
function untimedScore(report: Report, category: string): number | null {
  const refs = report.categories[category]!.auditRefs.filter(
    (ref) => ref.weight > 0 && !TIMED_AUDITS.has(ref.id) && report.audits[ref.id]!.scoreDisplayMode !== 'notApplicable',
  );
  const total = refs.reduce((sum, ref) => sum + ref.weight, 0);
  if (refs.some((ref) => report.audits[ref.id]!.score === null)) return null;
  return total === 0 ? 1 : refs.reduce((sum, ref) => sum + ref.weight * report.audits[ref.id]!.score!, 0) / total;
}

/**
 * `audit /path` for each audit of the asserted categories that Lighthouse points out on a page: a
 * score below 1, an audit that could not run, or an informative audit with something to say.
 */
function findings(): string[] {
  const found: string[] = [];
  for (const [page, report] of reports) {
    const ids = new Set(CATEGORIES.flatMap((category) => report.categories[category]!.auditRefs.map((ref) => ref.id)));
    for (const id of ids) {
      if (TIMED_AUDITS.has(id)) continue;
      const audit = report.audits[id]!;
      const flagged =
        (audit.score !== null && audit.score < 1) ||
        audit.scoreDisplayMode === 'error' ||
        (audit.scoreDisplayMode === 'informative' && audit.displayValue !== undefined);
      if (flagged) found.push(`${id} ${page}`);
    }
  }
  return found.sort();
}

/** The table of accepted findings in docs/features.md: `| \`audit\` | \`/path\` | why |`. */
function acceptedInDocs(): string[] {
  const doc = readFileSync(path.join(ROOT, 'docs/features.md'), 'utf8');
  const section = /## Accepted Lighthouse findings\n([\s\S]*?)(?=\n#{1,3} |$)/.exec(doc)?.[1];
  if (section === undefined) throw new Error('docs/features.md has no "Accepted Lighthouse findings" section');
  return [...section.matchAll(/^\| `([a-z-]+)` \| `([^`]+)` \|/gm)].map((row) => `${row[1]} ${row[2]}`).sort();
}

function toolNames(page: string): string[] {
  const sections = (reports.get(page)!.audits['webmcp-registered-tools']!.details?.items ?? []) as {
    value?: { items?: { tool: string }[] };
  }[];
  return sections.flatMap((section) => section.value?.items?.map((item) => item.tool) ?? []);
}

describe('Lighthouse 13 on the key pages', () => {
  it('ran Lighthouse 13 on every page without a runtime error', () => {
    for (const [page, report] of reports) {
      expect(report.lighthouseVersion, page).toMatch(/^13\./);
      expect(report.runtimeError, page).toBeUndefined();
    }
  });

  it.each(PAGES)(
    'scores 100 in accessibility, best practices, SEO and agentic browsing (timing aside) on %s',
    (page) => {
      const report = reports.get(page)!;
      expect(Object.fromEntries(CATEGORIES.map((id) => [id, untimedScore(report, id)]))).toEqual(
        Object.fromEntries(CATEGORIES.map((id) => [id, 1])),
      );
    },
  );

  it('sees the WebMCP tools of the home, search and contact pages, and checks their schemas', () => {
    expect(toolNames('/')).toEqual(['search_portfolio']);
    expect(toolNames('/search')).toEqual(['search_portfolio']);
    expect(toolNames('/contact')).toEqual(['send_message']);
    for (const page of ['/', '/search', '/contact']) {
      const validity = reports.get(page)!.audits['webmcp-schema-validity']!;
      expect({ page, mode: validity.scoreDisplayMode, score: validity.score }).toEqual({
        page,
        mode: 'binary',
        score: 1,
      });
    }
  });

  it('points out nothing but the findings docs/features.md lists and explains, and each of those still occurs', () => {
    expect(findings()).toEqual(acceptedInDocs());
  });
});
