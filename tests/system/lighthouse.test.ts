import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lighthouseUrl,
  runLighthouse,
  startDebuggingChromium,
  verdict,
  type DebuggingChromium,
  type LighthouseReport as Report,
} from '../support/lighthouse.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

/**
 * Lighthouse 13 (pinned in devDependencies) on the key pages of the built site, in Debian's
 * Chromium: accessibility, best practices, SEO and Agentic Browsing (the accessibility tree an
 * agent reads, the page's WebMCP tools and their schemas, layout shifts, llms.txt, and an
 * ai-catalog.json if one is published). Performance is left out: its score depends on how busy
 * the machine is. Every page must score 100 in each category, and whatever Lighthouse still points
 * out must stand, explained, in the table of accepted findings in docs/features.md, which this
 * test keeps equal to what it finds. On the home page, the one page scanners load, each Agentic
 * Browsing audit is also checked by id: a category score counts an audit that does not apply for
 * nothing, so a catalog or a WebMCP tool gone missing would not lower it.
 */

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

/**
 * What each Agentic Browsing audit must come to on the home page, the one page scanners load:
 * every audit applies and passes (lists a WebMCP tool, for the informative one) unless this says
 * otherwise, with why. An audit a later Lighthouse adds to the category fails the test until it is
 * placed here.
 */
const HOME_AGENTIC = {
  'agent-accessibility-tree': 'pass',
  'llms-txt': 'pass',
  // Applies when /.well-known/ai-catalog.json answers 200, or robots.txt (Agentmap), a link or a
  // Link header names a catalog; it then validates the catalog as the ARD conformance suite does.
  'ard-schema': 'pass',
  'webmcp-registered-tools': 'lists a tool',
  // Applies once the page registers a tool.
  'webmcp-schema-validity': 'pass',
  // The home page has no form; the forms' coverage is judged on /contact and /search.
  'webmcp-form-coverage': 'n/a',
  // Measures timing (TIMED_AUDITS).
  'cumulative-layout-shift': 'not asserted',
} as const;

let server: RunningServer;
let chromium: DebuggingChromium;
const reports = new Map<string, Report>();

beforeAll(async () => {
  [server, chromium] = await Promise.all([startServer({ READ_RATE_LIMIT: '100000/60' }), startDebuggingChromium()]);
  const found = await runLighthouse(
    PAGES.map((page) => lighthouseUrl(server.baseUrl, page)),
    chromium.port,
    CATEGORIES,
  );
  PAGES.forEach((page, index) => reports.set(page, found[index]!));
  const scores = PAGES.map(
    (page) => `${page} ${CATEGORIES.map((id) => `${id} ${reports.get(page)!.categories[id]?.score}`).join(', ')}`,
  );
  process.stdout.write(`Lighthouse ${reports.get('/')!.lighthouseVersion}:\n${scores.join('\n')}\n`);
}, 900_000);
afterAll(async () => {
  await chromium?.stop();
  await server?.stop();
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

  it('comes out as expected in each Agentic Browsing audit on the home page', () => {
    const report = reports.get('/')!;
    const found = report.categories['agentic-browsing']!.auditRefs.map(({ id }) => {
      const expected = (HOME_AGENTIC as Record<string, string>)[id];
      if (expected === 'not asserted') return [id, expected];
      const outcome = verdict(report.audits[id]!);
      if (expected === 'lists a tool') return [id, toolNames('/').length > 0 ? expected : `${outcome}, no tool`];
      return [id, outcome];
    });
    expect(Object.fromEntries(found)).toEqual(HOME_AGENTIC);
  });

  it('points out nothing but the findings docs/features.md lists and explains, and each of those still occurs', () => {
    expect(findings()).toEqual(acceptedInDocs());
  });
});
