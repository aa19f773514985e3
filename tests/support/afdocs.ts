import { computeScore, runChecks } from 'afdocs';
import { SITE } from './sitemap.ts';

/**
 * afdocs, the Agent-Friendly Docs Spec's own checker (pinned in devDependencies), through its
 * programmatic API (the engine its command line runs), against a local server, as the afdocs
 * test and `npm run audit:agents` (scripts/audit-agents.ts) run it. It only fetches from the
 * server it is given: the build's canonical origin (SITE) in every link is mapped onto that
 * server.
 */

interface AfdocsSample {
  url: string;
  resolvedUrl?: string;
  outcome: string;
  status?: number;
  error?: string;
}
interface AfdocsPageResult {
  url?: string;
  status?: string;
  found?: boolean;
  samples?: AfdocsSample[];
}
interface AfdocsCheck {
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
 * Every check on the site at `baseUrl`, sampled deterministically and with a link limit above
 * llms.txt's links, so that every link and the same pages are checked on every run; scored as
 * its command line's `--score` does. The server must let one client open many connections
 * (afdocs is one scanner on one address).
 *
 * afdocs gives up on a response after 15 s by default and then reports the link as broken, which a
 * busy machine can cause on its own; the server here is local, so a wait that long means load, not
 * a fault of the site. (Its command line reads no request timeout, from flags or its config file:
 * hence the API.) It also waits 200 ms between requests by default, to be gentle with a site on
 * the internet: against a local server that is only idle time (most of the scan's), so there is
 * no pause; its three requests at a time stay.
 */
export async function runAfdocs(baseUrl: string): Promise<AfdocsReport> {
  const report = await runChecks(baseUrl, {
    canonicalOrigin: SITE,
    samplingStrategy: 'deterministic',
    maxLinksToTest: 500,
    requestTimeout: 120_000,
    requestDelay: 0,
  });
  return { ...report, scoring: computeScore(report) } as AfdocsReport;
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
