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
export async function runAfdocs(baseUrl: string): Promise<AfdocsScan> {
  const direct = globalThis.fetch;
  let resent = 0;
  globalThis.fetch = retryingClosedConnections(direct, () => resent++);
  try {
    const report = await runChecks(baseUrl, {
      canonicalOrigin: SITE,
      samplingStrategy: 'deterministic',
      maxLinksToTest: 500,
      requestTimeout: 120_000,
      requestDelay: 0,
    });
    return { report: { ...report, scoring: computeScore(report) } as AfdocsReport, resent };
  } finally {
    globalThis.fetch = direct;
  }
}

/** What afdocs found, and how many of its requests were sent again (see retryingClosedConnections). */
export interface AfdocsScan {
  report: AfdocsReport;
  resent: number;
}

/** The errors undici gives a request whose connection closed before any answer came. */
const CLOSED_BEFORE_ANSWER = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

/**
 * afdocs fetches with the global fetch and counts a link whose request failed before any answer
 * (`fetch-error`, "fetch failed") as broken. Against the local server, in some runs, the first
 * request on each of its three kept-alive connections fails so ("other side closed") after a
 * stretch in which the connections sat idle, while every answer the server gives is right. A
 * client may send an idempotent request again when its connection closes before the answer (RFC
 * 9112 section 9.3.1), as agents' HTTP clients do: such a GET or HEAD is sent once more here, so
 * that afdocs judges the site's answers. A second failure, or any answer with an error status,
 * stays what afdocs reports.
 */
function retryingClosedConnections(direct: typeof fetch, onResend: () => void): typeof fetch {
  return async (input, init) => {
    try {
      return await direct(input, init);
    } catch (error) {
      const method = (init?.method ?? 'GET').toUpperCase();
      const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string;
      if ((method !== 'GET' && method !== 'HEAD') || init?.signal?.aborted === true || !CLOSED_BEFORE_ANSWER.has(code))
        throw error;
      onResend();
      return direct(input, init);
    }
  };
}
