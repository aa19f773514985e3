import { describe, expect, it } from 'vitest';
import { plainToolCall } from '../../functions/mcp/plain-tool-call.ts';
import { mcpPost } from '../support/mcp-post.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LEGACY_HEADERS = { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25' };
const MODERN_HEADERS = {
  ...JSON_HEADERS,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'get_project',
};

const request = (headers: Record<string, string>) => mcpPost(headers);

const legacyBody = (params: Record<string, unknown> = { name: 'get_project', arguments: { slug: 'x' } }) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params,
});
const modernBody = (meta: Record<string, unknown> = ENVELOPE) =>
  legacyBody({ name: 'get_project', arguments: {}, _meta: meta });

describe('plainToolCall', () => {
  it('takes a plain tools/call of either era', () => {
    expect(plainToolCall(request(LEGACY_HEADERS), legacyBody())).toEqual({
      id: 1,
      modern: false,
      name: 'get_project',
      args: { slug: 'x' },
    });
    expect(plainToolCall(request(MODERN_HEADERS), modernBody())).toMatchObject({ modern: true, name: 'get_project' });
    expect(plainToolCall(request(LEGACY_HEADERS), legacyBody({ name: 'get_project' }))).toMatchObject({
      args: undefined,
    });
  });

  it.each([
    ['a batch', LEGACY_HEADERS, [legacyBody()]],
    ['a notification', LEGACY_HEADERS, { jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } }],
    ['another method', LEGACY_HEADERS, { ...legacyBody(), method: 'tools/list' }],
    ['a fractional id', LEGACY_HEADERS, { ...legacyBody(), id: 1.5 }],
    ['an extra member', LEGACY_HEADERS, { ...legacyBody(), extra: true }],
    ['an extra parameter', LEGACY_HEADERS, legacyBody({ name: 'get_project', task: {} })],
    ['array arguments', LEGACY_HEADERS, legacyBody({ name: 'get_project', arguments: [] })],
    ['a name that needs encoding', LEGACY_HEADERS, legacyBody({ name: 'gét' })],
    ['no version header', JSON_HEADERS, legacyBody()],
    ['an unknown version', { ...LEGACY_HEADERS, 'mcp-protocol-version': '1999-01-01' }, legacyBody()],
    ['a 2025 call with 2026 headers', { ...LEGACY_HEADERS, 'mcp-method': 'tools/call' }, legacyBody()],
    ['no event streams in Accept', { ...LEGACY_HEADERS, accept: 'application/json' }, legacyBody()],
    ['a body not declared JSON', { ...LEGACY_HEADERS, 'content-type': 'text/plain' }, legacyBody()],
    ['a _meta without the envelope', LEGACY_HEADERS, legacyBody({ name: 'get_project', _meta: {} })],
    ['a version header unlike _meta', { ...MODERN_HEADERS, 'mcp-protocol-version': '2025-11-25' }, modernBody()],
    [
      'an unserved modern version',
      { ...MODERN_HEADERS, 'mcp-protocol-version': '2099-01-01' },
      modernBody({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
    ],
    ['no client capabilities', MODERN_HEADERS, modernBody({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' })],
    ['another _meta entry', MODERN_HEADERS, modernBody({ ...ENVELOPE, progressToken: 1 })],
    ['Mcp-Name unlike the body', { ...MODERN_HEADERS, 'mcp-name': 'search' }, modernBody()],
    ['no Mcp-Method', { ...MODERN_HEADERS, 'mcp-method': '' }, modernBody()],
  ])('leaves %s to the SDK', (_case, headers, body) => {
    expect(plainToolCall(request(headers), body)).toBeUndefined();
  });
});
