// `npm run audit:agents [-- [--save DIR] [PATH...]]`: how agent scanners see the built site.
//
// Starts the production server (dist/server/portfolio.mjs, so `npm run build` first) on a free
// port with a fresh data directory, then runs, one after the other so that neither slows the
// other:
// - Lighthouse 13 on the home page (or the PATHs given), categories Agentic Browsing and SEO (the
//   latter holds the robots.txt audit), in Debian's Chromium with WebMCP on;
// - afdocs (the Agent-Friendly Docs Spec's checker) on the whole site.
// Prints each audit and check with its verdict, and a summary line per tool. Exits 1 only when a
// tool failed (did not run, or could not run an audit); a low score is a result, not a failure.
// `--save DIR` also writes the tools' full JSON reports there. Nothing is fetched from outside
// this machine.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runAfdocs } from '../tests/support/afdocs.ts';
import { lighthouseUrl, runLighthouse, startDebuggingChromium } from '../tests/support/lighthouse.ts';
import { ROOT, startServer } from '../tests/support/server.ts';
import { afdocsLines, afdocsToolFailures, lighthouseLines, lighthouseToolFailures } from './audit-agents-report.ts';

const CATEGORIES = ['agentic-browsing', 'seo'] as const;
/**
 * Quotas raised so that the scanners get answers rather than 429s: Lighthouse and afdocs are one
 * client each, and afdocs opens more connections at once than one visitor is allowed.
 */
const SCANNER_ENV = { READ_RATE_LIMIT: '100000/60', MAX_CONNECTIONS_PER_CLIENT: '100000' };

const { values, positionals } = parseArgs({ options: { save: { type: 'string' } }, allowPositionals: true });
const paths = positionals.length > 0 ? positionals : ['/'];
const saveDir = values.save === undefined ? undefined : path.resolve(values.save);
if (!existsSync(path.join(ROOT, 'dist/build-manifest.json'))) {
  console.error('No build in dist/: run `npm run build` first.');
  process.exit(1);
}

function save(name: string, report: unknown): void {
  if (saveDir === undefined) return;
  mkdirSync(saveDir, { recursive: true });
  writeFileSync(path.join(saveDir, name), JSON.stringify(report, null, 2));
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

async function auditWithLighthouse(baseUrl: string): Promise<string[]> {
  const started = performance.now();
  const chromium = await startDebuggingChromium();
  try {
    const urls = paths.map((pathname) => lighthouseUrl(baseUrl, pathname));
    const reports = await runLighthouse(urls, chromium.port, CATEGORIES);
    reports.forEach((report, index) => {
      save(`lighthouse-${index}.json`, report);
      console.log(lighthouseLines(report, CATEGORIES).join('\n'));
    });
    console.log(`Lighthouse: ${reports.length} page(s) in ${seconds(started)}\n`);
    return reports.flatMap(lighthouseToolFailures);
  } finally {
    await chromium.stop();
  }
}

async function auditWithAfdocs(baseUrl: string): Promise<string[]> {
  const started = performance.now();
  const { report, resent } = await runAfdocs(baseUrl);
  save('afdocs.json', report);
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/afdocs/package.json'), 'utf8')) as {
    version: string;
  };
  console.log(afdocsLines(report, version, baseUrl).join('\n'));
  console.log(
    `afdocs: ${report.results.length} checks in ${seconds(started)}; ${resent} request(s) sent again after their connection closed before an answer`,
  );
  return afdocsToolFailures(report);
}

/** A tool that threw is a failure of the tool; the other still runs. */
async function failuresOf(tool: string, run: () => Promise<string[]>): Promise<string[]> {
  try {
    return await run();
  } catch (error) {
    return [`${tool} failed: ${error instanceof Error ? error.message : String(error)}`];
  }
}

const server = await startServer(SCANNER_ENV);
let failures: string[];
try {
  failures = [
    ...(await failuresOf('Lighthouse', () => auditWithLighthouse(server.baseUrl))),
    ...(await failuresOf('afdocs', () => auditWithAfdocs(server.baseUrl))),
  ];
} finally {
  await server.stop();
  rmSync(server.dataDir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`\nTool failures:\n${failures.join('\n')}`);
  process.exitCode = 1;
}
