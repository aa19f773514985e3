import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PassReport } from '../../functions/app/background-work.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { readVariable } from '../../functions/config/read-variable.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { cronTarget } from '../../functions/hosts/vercel/cron-target.ts';

const config = { ...loadConfig({}), accessLog: false };
const SECRET = 'a-long-random-cron-secret-0123456789';
const REPORT: PassReport = { deliveries: { email: 0 }, jobs: { reaped: 0, started: 0 } };
const URL_PATH = 'https://ada.example/api/portfolio-cron';

/** The target over a pass that only counts its runs, and the log lines it wrote. */
function target(secret: string | null) {
  const runs = { count: 0 };
  const logged: Record<string, unknown>[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n').filter(Boolean))
      logged.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  const fetch = cronTarget(config, secret, async () => {
    runs.count++;
    return REPORT;
  });
  const call = (headers: Record<string, string> = {}, method = 'GET') =>
    fetch(new Request(URL_PATH, { method, headers }));
  return { call, runs, logged };
}

/** The Error shape, with the request id the answer carries. */
async function errorOf(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  return body;
}

afterEach(() => vi.restoreAllMocks());

describe('the Vercel cron target without CRON_SECRET', () => {
  it('reads an unset or empty CRON_SECRET as none', () => {
    expect(readVariable({}, 'CRON_SECRET')).toBeNull();
    expect(readVariable({ CRON_SECRET: '' }, 'CRON_SECRET')).toBeNull();
    expect(readVariable({ CRON_SECRET: SECRET }, 'CRON_SECRET')).toBe(SECRET);
  });

  it('refuses every call, whatever it presents, with 403 cron_disabled in the Error shape, and never runs the pass', async () => {
    const { call, runs } = target(null);
    const presented: Record<string, string>[] = [
      {},
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${SECRET}` },
    ];
    for (const headers of presented) {
      const response = await call(headers);
      expect(response.status).toBe(403);
      const body = await errorOf(response);
      expect(body).toMatchObject({ code: 'cron_disabled' });
      expect(body.hint).toContain('Set CRON_SECRET');
      for (const [name, value] of Object.entries(securityHeaders(config)))
        expect(response.headers.get(name), name).toBe(value);
    }
    expect(runs.count).toBe(0);
  });

  it('logs one line naming CRON_SECRET, not one per call', async () => {
    const { call, logged } = target(null);
    for (let i = 0; i < 3; i++) await call();
    const warnings = logged.filter((line) => line.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ variable: 'CRON_SECRET' });
    expect(String(warnings[0]!.message)).toContain('CRON_SECRET is unset');
  });
});

describe('the Vercel cron target with CRON_SECRET', () => {
  it('runs the pass once for the call that presents it, as Vercel sends it, and answers 204', async () => {
    const { call, runs, logged } = target(SECRET);
    const response = await call({ authorization: `Bearer ${SECRET}` });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(runs.count).toBe(1);
    expect(logged.find((line) => line.message === 'scheduled pass')).toMatchObject({ jobs: REPORT.jobs });
    // The scheme is case-insensitive (RFC 9110 section 11.1).
    expect((await call({ authorization: `bearer ${SECRET}` })).status).toBe(204);
    expect(runs.count).toBe(2);
  });

  it.each([
    ['no Authorization', {}],
    ['another secret', { authorization: 'Bearer not-the-secret' }],
    ['the secret cut short', { authorization: `Bearer ${SECRET.slice(0, -1)}` }],
    ['the secret and more', { authorization: `Bearer ${SECRET}x` }],
    ['another scheme', { authorization: `Basic ${SECRET}` }],
    ['the secret alone', { authorization: SECRET }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
  ])('refuses %s with 401 cron_unauthorized and a Bearer challenge, the pass never run', async (_, headers) => {
    const { call, runs } = target(SECRET);
    const response = await call(headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="portfolio-cron"');
    const body = await errorOf(response);
    expect(body).toMatchObject({ code: 'cron_unauthorized' });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(runs.count).toBe(0);
  });

  it('takes GET only: another method with the secret is a 405 with Allow, the pass not run', async () => {
    const { call, runs } = target(SECRET);
    const response = await call({ authorization: `Bearer ${SECRET}` }, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await errorOf(response)).toMatchObject({ code: 'method_not_allowed' });
    expect(runs.count).toBe(0);
  });
});
