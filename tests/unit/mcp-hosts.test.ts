import { describe, expect, it } from 'vitest';
import { hostPolicy } from '../../functions/mcp/hosts.ts';

const SITE = { siteUrl: 'https://ada.example', apiOrigin: null, backendOrigin: null };

describe('hostPolicy', () => {
  it('accepts the site, its sandbox name and the configured names, with or without a port, and nothing else', () => {
    const verdict = hostPolicy(SITE, '0.0.0.0', ['mcp.ada.example']);
    for (const host of ['ada.example', 'ada.example:443', 'sandbox.ada.example', 'mcp.ada.example:8080', 'ADA.example'])
      expect(verdict(host), host).toEqual({ ok: true });
    for (const host of [undefined, '', 'evil.example', 'ada.example.evil.example', 'localhost:4321', 'ada.example:x'])
      expect(verdict(host).ok, String(host)).toBe(false);
  });

  it('gives the same verdicts once it remembers accepted headers, and past the most it remembers', () => {
    const verdict = hostPolicy(SITE, '127.0.0.1', []);
    for (let round = 0; round < 2; round++) {
      for (let port = 1; port <= 100; port++) expect(verdict(`localhost:${port}`)).toEqual({ ok: true });
      expect(verdict('ada.example')).toEqual({ ok: true });
      expect(verdict('evil.example')).toMatchObject({ ok: false, message: expect.stringContaining('evil.example') });
      expect(verdict('localhost.evil.example').ok).toBe(false);
    }
  });
});
