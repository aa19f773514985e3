import { describe, expect, it } from 'vitest';
import { answerMemo, memoKey } from '../../functions/mcp/answer-memo.ts';
import { mcpPost } from '../support/mcp-post.ts';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const request = (headers: Record<string, string> = HEADERS, path = '/mcp') => mcpPost(headers, { path });

const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project', arguments: { slug: 'a' } } };
const keyOf = (body: unknown, req = request()) => memoKey(req, body, JSON.stringify(body).length)?.key;
const memoOf = (body: unknown) => memoKey(request(), body, JSON.stringify(body)?.length ?? 4);

describe('memoKey', () => {
  it('is the same for messages that differ only by their id, and gives the id', () => {
    expect(memoOf(CALL)).toEqual({ key: keyOf({ ...CALL, id: 'x' }), id: 1 });
    expect(memoOf({ ...CALL, id: 'x' })?.id).toBe('x');
  });

  it('tells apart whatever else an answer may depend on', () => {
    const keys = [
      keyOf(CALL),
      keyOf(CALL, request(HEADERS, '/mcp/docs')),
      keyOf({ ...CALL, params: { name: 'get_project', arguments: { slug: 'b' } } }),
      keyOf({ ...CALL, method: 'tools/list', params: undefined }),
      keyOf({ jsonrpc: '2.0', method: 'tools/call', params: CALL.params }),
      keyOf(CALL, request({ ...HEADERS, 'mcp-protocol-version': '2025-06-18' })),
      keyOf(CALL, request({ ...HEADERS, accept: 'application/json' })),
      keyOf(CALL, request({ ...HEADERS, 'content-type': 'text/plain' })),
      keyOf(CALL, request({ ...HEADERS, 'mcp-method': 'tools/call' })),
      keyOf(CALL, request({ ...HEADERS, 'mcp-name': 'get_project' })),
      // An empty header is not an absent one.
      keyOf(CALL, request({ ...HEADERS, 'mcp-name': '' })),
    ];
    expect(keys.every((key) => key !== undefined)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps nothing for a message whose answer is not kept', () => {
    for (const body of [
      [CALL],
      null,
      { ...CALL, jsonrpc: '1.0' },
      { ...CALL, method: 'resources/read' },
      { ...CALL, method: 'tools/call\n' },
      { ...CALL, extra: true },
      { ...CALL, id: null },
      { ...CALL, id: 1.5 },
      { ...CALL, id: {} },
      { ...CALL, params: { name: 'search', arguments: { q: 'x'.repeat(2100) } } },
    ])
      expect(memoOf(body), JSON.stringify(body)?.slice(0, 80)).toBeUndefined();
  });

  it('neither keeps nor walks a long body, however deep it nests', () => {
    let deep: unknown = 'x';
    for (let depth = 0; depth < 20_000; depth++) deep = [deep];
    const body = { ...CALL, params: { name: 'search', arguments: { q: deep } } };
    expect(memoKey(request(), body, 40_100)).toBeUndefined();
    for (const small of [CALL, { ...CALL, method: 'tools/list', params: undefined }])
      expect(memoKey(request(), small, 2600)).toBeUndefined();
  });

  it('keeps a body up to 2.5 KiB', () => {
    expect(memoKey(request(), CALL, 2560)?.id).toBe(1);
  });
});

describe('answerMemo', () => {
  it('holds at most its budget of bytes, whatever is put in', () => {
    const kept = answerMemo();
    const around: [string, string] = [`{"result":${JSON.stringify({ text: 'x'.repeat(20_000) })},"id":`, '}'];
    for (let n = 0; n < 1000; n++) kept.set(`key ${n}`, { status: 200, headers: {}, around });
    expect(kept.bytes).toBeLessThanOrEqual(kept.budget);
    expect(kept.size).toBeGreaterThan(10);
    expect(kept.get('key 999')?.around).toBe(around);
  });
});
