import { describe, expect, it } from 'vitest';
import { answerWith, preparedAnswers, preparedShape } from '../../functions/mcp/prepared-answers.ts';
import { mcpPost } from '../support/mcp-post.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LEGACY_HEADERS = { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25' };
const MODERN_HEADERS = { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

const request = (headers: Record<string, string>, path = '/mcp') => mcpPost(headers, { path });

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const MODERN_LIST = { ...LIST, params: { _meta: ENVELOPE } };

describe('preparedShape', () => {
  it('takes the plain forms of both eras, the id and the client name left out of the key', () => {
    const first = preparedShape(request(JSON_HEADERS), INITIALIZE);
    const other = preparedShape(request(JSON_HEADERS), {
      ...INITIALIZE,
      id: 'x',
      params: { ...INITIALIZE.params, clientInfo: { name: 'b', version: '2' } },
    });
    expect(first?.key).toBeDefined();
    expect(other).toMatchObject({ key: first!.key, id: 'x' });
    expect(preparedShape(request(LEGACY_HEADERS), LIST)).toMatchObject({ id: 1 });
    expect(preparedShape(request(MODERN_HEADERS), MODERN_LIST)).toMatchObject({ id: 1 });
    expect(
      preparedShape(request(LEGACY_HEADERS), { jsonrpc: '2.0', method: 'notifications/initialized' }),
    ).toMatchObject({ id: undefined });
  });

  it('keys what the answer may depend on: version asked, capabilities, header, endpoint', () => {
    const key = (headers: Record<string, string>, body: unknown, path?: string) =>
      preparedShape(request(headers, path), body)?.key;
    const base = key(JSON_HEADERS, INITIALIZE);
    const keys = [
      key(JSON_HEADERS, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } }),
      key(JSON_HEADERS, { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities: { roots: {} } } }),
      key(LEGACY_HEADERS, INITIALIZE),
      key(JSON_HEADERS, INITIALIZE, '/mcp/docs'),
    ];
    for (const other of keys) expect(other).not.toBe(base);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each<[string, Record<string, string>, unknown]>([
    ['a batch', LEGACY_HEADERS, [LIST]],
    ['a cursor', LEGACY_HEADERS, { ...LIST, params: { cursor: 'c' } }],
    ['a _meta entry besides the envelope', LEGACY_HEADERS, { ...LIST, params: { _meta: { 'x/y': 1 } } }],
    ['an extra envelope entry', MODERN_HEADERS, { ...LIST, params: { _meta: { ...ENVELOPE, 'x/y': 1 } } }],
    ['a method not kept', LEGACY_HEADERS, { ...LIST, method: 'resources/read' }],
    ['ping in 2026-07-28', { ...MODERN_HEADERS, 'mcp-method': 'ping' }, { ...MODERN_LIST, method: 'ping' }],
    ['server/discover in the 2025 era', LEGACY_HEADERS, { ...LIST, method: 'server/discover' }],
    ['a notification with an id', LEGACY_HEADERS, { ...LIST, method: 'notifications/initialized' }],
    ['a request without an id', LEGACY_HEADERS, { jsonrpc: '2.0', method: 'tools/list' }],
    ['a fractional id', LEGACY_HEADERS, { ...LIST, id: 1.5 }],
    ['an unknown 2025 version header', { ...JSON_HEADERS, 'mcp-protocol-version': '2099-01-01' }, LIST],
    ['an Accept without event streams', { ...LEGACY_HEADERS, accept: 'application/json' }, LIST],
    ['a text body type', { ...LEGACY_HEADERS, 'content-type': 'text/plain' }, LIST],
    ['Mcp-Name', { ...MODERN_HEADERS, 'mcp-name': 'x' }, MODERN_LIST],
    ['Mcp-Method naming another method', { ...MODERN_HEADERS, 'mcp-method': 'prompts/list' }, MODERN_LIST],
    ['Mcp-Method in the 2025 era', { ...LEGACY_HEADERS, 'mcp-method': 'tools/list' }, LIST],
    ['an envelope version unlike the header', { ...MODERN_HEADERS, 'mcp-protocol-version': '2025-11-25' }, MODERN_LIST],
    [
      'a malformed clientInfo',
      MODERN_HEADERS,
      { ...LIST, params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': {} } } },
    ],
    [
      'initialize without clientInfo',
      JSON_HEADERS,
      { ...INITIALIZE, params: { protocolVersion: '2025-11-25', capabilities: {} } },
    ],
    [
      'initialize with huge capabilities',
      JSON_HEADERS,
      { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities: { experimental: { x: 'y'.repeat(3000) } } } },
    ],
  ])('leaves %s to the SDK', (_name, headers, body) => {
    expect(preparedShape(request(headers), body)).toBeUndefined();
  });
});

describe('preparedAnswers', () => {
  const shape = preparedShape(request(LEGACY_HEADERS), LIST)!;

  it('puts each id in, JSON-encoded, and makes the answer once', async () => {
    let made = 0;
    const answer = preparedAnswers((template) => {
      made++;
      const { id } = template.body as { id: string };
      return Promise.resolve({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ result: { tools: [] }, jsonrpc: '2.0', id }),
      });
    });
    for (const id of [1, 'a"b', -0, 'é']) {
      const given = answerWith((await answer({ ...shape, id }))!, id, { 'x-quota': '1' });
      expect(given.body).toBe(JSON.stringify({ result: { tools: [] }, jsonrpc: '2.0', id }));
      expect(given.headers).toEqual({ 'x-quota': '1', 'content-type': 'application/json' });
    }
    expect(made).toBe(1);
  });

  it('serves nothing prepared when the template is refused, and retries a template that threw', async () => {
    const refused = preparedAnswers(() => Promise.resolve({ status: 400, headers: {}, body: '{}' }));
    expect(await refused(shape)).toBeUndefined();
    let calls = 0;
    const flaky = preparedAnswers(() =>
      ++calls === 1 ? Promise.reject(new Error('x')) : Promise.resolve({ status: 202, headers: {}, body: null }),
    );
    const notification = preparedShape(request(LEGACY_HEADERS), {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    })!;
    expect(await flaky(notification)).toBeUndefined();
    expect(await flaky(notification)).toMatchObject({ status: 202, around: null });
    expect(calls).toBe(2);
  });
});
