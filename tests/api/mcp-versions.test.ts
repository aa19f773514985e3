import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../../functions/mcp/protocol-versions.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { MODERN_ENVELOPE, MODERN_VERSION, sendModern } from '../support/mcp-eras.ts';

/**
 * -32022 UnsupportedProtocolVersion (2026-07-28 basic/versioning, "Protocol Version
 * Negotiation"): in both eras with the request's id, what was asked, and the versions a request
 * of the same form may name.
 */

let server: InProcessApi;
beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
});
afterAll(() => server.stop());

const ENDPOINTS = ['/mcp', '/mcp/docs'];

describe('an unsupported protocol version', () => {
  it.each(ENDPOINTS)(
    '%s, 2026-07-28 form: -32022 listing the modern versions, the same list as server/discover',
    async (path) => {
      const url = `${server.baseUrl}${path}`;
      const discover = await sendModern(url, 1, 'server/discover', {}, {});
      expect(discover.body.result?.supportedVersions).toEqual(MODERN_PROTOCOL_VERSIONS);
      expect(MODERN_PROTOCOL_VERSIONS).toContain(MODERN_VERSION);

      for (const requested of ['2099-01-01', '2025-11-25']) {
        const refused = await sendModern(
          url,
          2,
          'tools/list',
          { _meta: { ...MODERN_ENVELOPE, 'io.modelcontextprotocol/protocolVersion': requested } },
          { 'mcp-protocol-version': requested },
        );
        expect(refused, requested).toEqual({
          status: 400,
          body: {
            jsonrpc: '2.0',
            id: 2,
            error: {
              code: -32022,
              message: expect.any(String),
              data: { supported: MODERN_PROTOCOL_VERSIONS, requested },
            },
          },
        });
      }
    },
  );

  it.each(ENDPOINTS)('%s, 2025 form: -32022 with the id, listing the versions initialize negotiates', async (path) => {
    const post = (body: unknown, version: string) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
        },
        body: JSON.stringify(body),
      });
    const refused = await post({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} }, '1999-01-01');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 'list-1',
      error: {
        code: -32022,
        message: expect.stringMatching(/Unsupported protocol version: 1999-01-01/),
        data: { supported: [...LEGACY_PROTOCOL_VERSIONS], requested: '1999-01-01' },
      },
    });
    expect(LEGACY_PROTOCOL_VERSIONS).toContain('2025-11-25');

    // A plain tool call naming no version of either era is refused alike, not answered.
    const call = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: path === '/mcp' ? 'sandbox_ping' : 'list_docs' } },
      '1999-01-01',
    );
    expect(await call.json()).toMatchObject({ id: 3, error: { code: -32022 } });

    // initialize negotiates in its body (2025-11-25 lifecycle): an unknown version there gets the latest.
    const opened = await post(
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      '1999-01-01',
    );
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ id: 4, result: { protocolVersion: LEGACY_PROTOCOL_VERSIONS[0] } });
  });

  // 2024-10-07 is a pre-release date that the SDK accepts but that was never published as a revision.
  it.each(ENDPOINTS)('%s, 2025 form: 2024-10-07 is neither served nor named', async (path) => {
    const post = (body: unknown, version: string) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
        },
        body: JSON.stringify(body),
      });
    const refused = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, '2024-10-07');
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: number; data: { supported: string[] } } };
    expect(error.code).toBe(-32022);
    expect(error.data.supported).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

    const opened = await post(
      {
        jsonrpc: '2.0',
        id: 6,
        method: 'initialize',
        params: { protocolVersion: '2024-10-07', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      '2025-11-25',
    );
    expect(await opened.json()).toMatchObject({ id: 6, result: { protocolVersion: '2025-11-25' } });
  });
});
