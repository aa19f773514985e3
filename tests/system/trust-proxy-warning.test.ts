import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { startService } from '../support/service.ts';

/**
 * Behind a proxy left untrusted (TRUST_PROXY=0) every visitor shares the proxy's address and one
 * quota; the first request that shows a proxy (an X-Forwarded-For header) makes the server say so.
 */
describe('the warning about X-Forwarded-For while TRUST_PROXY=0', () => {
  let stdout: MockInstance<typeof process.stdout.write>;
  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => stdout.mockRestore());

  /** The warnings the server logged about TRUST_PROXY, parsed from its JSON log lines. */
  const proxyWarnings = () =>
    stdout.mock.calls
      .flatMap(([chunk]) => String(chunk).split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.level === 'warning' && entry.variable === 'TRUST_PROXY');

  /** Sends each request to a fresh service with `env`, then stops it. */
  async function send(env: Record<string, string>, requests: Record<string, string>[]): Promise<void> {
    const service = await startService(env);
    try {
      for (const headers of requests) {
        const response = await fetch(`${service.baseUrl}/api/health`, { headers });
        expect(response.status).toBe(200);
      }
    } finally {
      await service.stop();
    }
  }

  const forwarded = [
    { 'x-forwarded-for': '198.51.100.1' },
    { 'x-forwarded-for': '198.51.100.2' },
    { 'x-forwarded-for': '203.0.113.9, 198.51.100.3' },
  ];

  it('is logged exactly once for several forwarded requests, naming the variable and what to set', async () => {
    await send({ TRUST_PROXY: '0' }, [{}, ...forwarded]);
    const warnings = proxyWarnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('TRUST_PROXY=0');
    expect(warnings[0]!.message).toContain('1 behind nginx');
    expect(warnings[0]!.message).toContain('2 behind Cloudflare and nginx');
    // The address every one of those clients was counted as: the proxy's (here the test's own).
    expect(warnings[0]!.peer).toBe('127.0.0.1');
  });

  it('is not logged when TRUST_PROXY is set', async () => {
    await send({ TRUST_PROXY: '1' }, forwarded);
    expect(proxyWarnings()).toEqual([]);
  });

  it('is not logged when no request carries X-Forwarded-For', async () => {
    await send({ TRUST_PROXY: '0' }, [{}, {}, { forwarded: 'for=198.51.100.1' }]);
    expect(proxyWarnings()).toEqual([]);
  });
});
