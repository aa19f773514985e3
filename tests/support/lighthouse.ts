import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.ts';
import { ROOT } from './server.ts';
import { toolsNode } from './tool-node.ts';

/**
 * Lighthouse 13 (pinned in devDependencies) driving Debian's Chromium, as the Lighthouse test and
 * `npm run audit:agents` (scripts/audit-agents.ts) run it: one Chromium, one Lighthouse process for
 * every page (./lighthouse-pages.mjs, through Lighthouse's programmatic API). Nothing here reaches
 * the network: Chromium gets the closed-network flags of ./browser.ts and Lighthouse only talks to
 * it and to the pages it is given.
 */

export interface LighthouseAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  explanation?: string;
  errorMessage?: string;
  details?: { items?: unknown[] };
}
export interface LighthouseReport {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, LighthouseAudit>;
}

/** How an audit came out; `error` means Lighthouse itself could not run it. */
export type Verdict = 'pass' | 'fail' | 'info' | 'n/a' | 'error';

/** Lighthouse shows an audit as passed from 0.9 up (its report's "pass" threshold). */
const LIGHTHOUSE_PASS = 0.9;

export function verdict(audit: LighthouseAudit): Verdict {
  switch (audit.scoreDisplayMode) {
    case 'notApplicable':
      return 'n/a';
    case 'error':
      return 'error';
    case 'informative':
    case 'manual':
      return 'info';
    default:
      return audit.score !== null && audit.score >= LIGHTHOUSE_PASS ? 'pass' : 'fail';
  }
}

export interface DebuggingChromium {
  /** Its DevTools port, which Lighthouse connects to. */
  port: number;
  stop(): Promise<void>;
}

/**
 * One headless Chromium with a throwaway profile, with the WebMCP testing feature on so that
 * Lighthouse sees the tools the pages register (without it the WebMCP audits are silently not
 * applicable). Resolves once its DevTools endpoint listens.
 */
export function startDebuggingChromium(): Promise<DebuggingChromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'lighthouse-chromium-'));
  const chromium = spawn(
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
  const exited = new Promise<void>((resolve) => chromium.once('exit', () => resolve()));
  const stop = async () => {
    if (chromium.exitCode === null && chromium.signalCode === null) chromium.kill();
    await exited;
    rmSync(profile, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    chromium.once('error', (error) => reject(new Error(`Chromium (${CHROMIUM_PATH}) did not start: ${error.message}`)));
    chromium.once('exit', (code) => reject(new Error(`Chromium exited with ${code} before listening`)));
    createInterface({ input: chromium.stderr! }).on('line', (line) => {
      const listening = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (listening !== null) resolve({ port: Number(listening[1]), stop });
    });
  });
}

/**
 * Lighthouse on each URL in turn, in the given Chromium, limited to `categories`; the reports
 * come in the order of the URLs. A page Lighthouse could not audit has its `runtimeError` set.
 */
export async function runLighthouse(
  urls: readonly string[],
  chromiumPort: number,
  categories: readonly string[],
): Promise<LighthouseReport[]> {
  const { stdout } = await promisify(execFile)(
    toolsNode(),
    [
      path.join(ROOT, 'tests/support/lighthouse-pages.mjs'),
      String(chromiumPort),
      categories.join(','),
      // A busy machine loads slowly; nothing asserted or reported depends on how fast.
      '120000',
      ...urls,
    ],
    { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, timeout: 900_000 },
  );
  return JSON.parse(stdout) as LighthouseReport[];
}

/**
 * The page's URL as Lighthouse must load it: the pages name their canonical origin by host name
 * (the build's SITE_URL is on localhost), and Lighthouse's canonical audit compares hosts.
 */
export function lighthouseUrl(baseUrl: string, pathname: string): string {
  return `${baseUrl.replace('127.0.0.1', 'localhost')}${pathname}`;
}
