import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAfdocs, type AfdocsReport as Report } from '../support/afdocs.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';
import { SERVER_CARD_PATHS } from '../../functions/mcp/server-identity.ts';
import { SITE } from '../support/sitemap.ts';

/**
 * The Agent-Friendly Docs Spec's own checker (afdocs, pinned in devDependencies) against the
 * built site, as an agent platform would scan it. Every finding it reports must stand in the
 * table of accepted findings in docs/features.md, and every row of that table must still be found: the
 * table is where each is explained (all are machine documents that afdocs counts as pages), and
 * this test keeps it true. A finding on an HTML page or a Markdown twin that is not in the table
 * fails the test. Sampling is deterministic and the link limit above llms.txt's links, so every
 * link and the same pages are checked on every run and the findings do not change between runs.
 */

let server: RunningServer;
let report: Report;

beforeAll(async () => {
  // afdocs is one scanner on one address; the per-client connection cap, which refuses a fetch
  // outright, is tested in connections.test.ts and kept out of the way here.
  server = await startServer({ MAX_CONNECTIONS_PER_CLIENT: '100000' });
  let resent: number;
  ({ report, resent } = await runAfdocs(server.baseUrl));
  process.stdout.write(
    `afdocs: ${report.scoring.overall}/100 (${report.scoring.grade}), ${resent} request(s) sent again\n`,
  );
  // A hang-catcher only: the scan takes seconds, but on a loaded machine its few hundred fetches
  // (each allowed afdocs' 120 s) have taken over two minutes.
}, 360_000);
afterAll(() => server.stop());

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
