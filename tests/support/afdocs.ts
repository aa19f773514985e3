import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';
import { SITE } from './sitemap.ts';

/**
 * afdocs, the Agent-Friendly Docs Spec's own checker (pinned in devDependencies), run through its
 * command line against a local server as the afdocs test and `npm run audit:agents`
 * (scripts/audit-agents.ts) run it. It only fetches from the server it is given: the build's
 * canonical origin (SITE) in every link is mapped onto that server.
 */

export interface AfdocsSample {
  url: string;
  resolvedUrl?: string;
  outcome: string;
  status?: number;
  error?: string;
}
export interface AfdocsPageResult {
  url?: string;
  status?: string;
  found?: boolean;
  samples?: AfdocsSample[];
}
export interface AfdocsCheck {
  id: string;
  category: string;
  status: 'pass' | 'warn' | 'fail' | 'skip' | 'error';
  message: string;
  details?: { pageResults?: AfdocsPageResult[] };
}
export interface AfdocsReport {
  results: AfdocsCheck[];
  summary: Record<'total' | 'pass' | 'warn' | 'fail' | 'skip' | 'error', number>;
  scoring: { overall: number; grade: string };
}

/** A page whose only broken links were connections that failed, and that answered when fetched again. */
export interface RecheckedPage {
  check: string;
  page: string;
  links: number;
}

/**
 * afdocs gives up on a response after 15 s by default and then reports the link as broken, which a
 * busy machine can cause on its own; the server here is local, so a wait that long means load, not
 * a fault of the site. It also waits 200 ms between requests by default, to be gentle with a site
 * on the internet: against a local server that is only idle time (most of the scan's), so there is
 * no pause; its three requests at a time stay.
 */
function writePatientConfig(dir: string): string {
  const file = path.join(dir, 'agent-docs.config.yml');
  writeFileSync(file, `url: ${SITE}\noptions:\n  requestTimeout: 120000\n  requestDelay: 0\n`);
  return file;
}

/**
 * Every check on the site at `baseUrl`, sampled deterministically and with a link limit above
 * llms.txt's links, so that every link and the same pages are checked on every run. The server
 * must let one client open many connections (afdocs is one scanner on one address).
 */
export async function runAfdocs(baseUrl: string): Promise<AfdocsReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'afdocs-'));
  try {
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/afdocs'),
      [
        'check',
        baseUrl,
        '--config',
        writePatientConfig(dir),
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
    return JSON.parse(stdout) as AfdocsReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * afdocs counts a link whose fetch failed before any answer (`fetch-error`, "fetch failed") as
 * broken. On a busy machine its own connections to the local server fail now and then, always
 * on the same few sampled links, while every HTTP answer is right. Such links are fetched again
 * here: a page all of whose broken samples now answer 2xx passes, and a check left with no
 * flagged page passes. Any link that answers with an error, or fails again, stays broken.
 * Returns the pages passed this way.
 */
export async function recheckTransportFailures(scan: AfdocsReport): Promise<RecheckedPage[]> {
  const rechecked: RecheckedPage[] = [];
  const flagged = (check: AfdocsCheck) =>
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
        rechecked.push({ check: check.id, page: page.url!, links: broken.length });
      }
    }
    if (before.length > 0 && flagged(check).length === 0) check.status = 'pass';
  }
  return rechecked;
}

export function describeRecheck({ check, page, links }: RecheckedPage): string {
  return `afdocs: ${check} ${page}: fetched again, ${links} link(s) answer`;
}
