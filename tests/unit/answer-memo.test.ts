import { describe, expect, it } from 'vitest';
import { answerMemo, keptAnswer, memoKey } from '../../functions/mcp/answer-memo.ts';
import { preparedAnswer, type Prepared } from '../../functions/mcp/prepared-answers.ts';
import { mcpPost } from '../support/mcp-post.ts';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const request = (headers: Record<string, string> = HEADERS, path = '/mcp') => mcpPost(headers, { path });

const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project', arguments: { slug: 'a' } } };
const keyOfText = (text: string, req = request()) => memoKey(req, text, JSON.parse(text));
const keyOf = (body: unknown, req = request()) => keyOfText(JSON.stringify(body), req);

/** A memo holding one answer, kept for `text`; and what it gives back for another text. */
function keptFor(text: string, req = request()) {
  const kept = answerMemo();
  const answer: Prepared = preparedAnswer(200, {}, ['{"result":{},"id":', '}']);
  const key = keyOfText(text, req);
  if (key !== undefined) kept.set(key, answer);
  return {
    key,
    find: (other: string, otherRequest = req) => {
      const found = keptAnswer(kept, otherRequest, other);
      if (found !== undefined) expect(found.answer).toBe(answer);
      return found;
    },
  };
}

describe('keptAnswer and memoKey', () => {
  it('find a message kept before by its text with another id, and give that id', () => {
    const memo = keptFor(JSON.stringify(CALL));
    expect(memo.find(JSON.stringify({ ...CALL, id: 42 }))?.id).toBe(42);
    expect(memo.find(JSON.stringify({ ...CALL, id: 'abc-1' }))?.id).toBe('abc-1');
    expect(memo.find(JSON.stringify({ ...CALL, id: -7 }))?.id).toBe(-7);
    // As the TypeScript SDK writes it (the id last), and as Python's json writes it (a space after each colon).
    const last = keptFor(JSON.stringify({ method: CALL.method, params: CALL.params, jsonrpc: '2.0', id: 0 }));
    expect(last.find(JSON.stringify({ method: CALL.method, params: CALL.params, jsonrpc: '2.0', id: 9 }))?.id).toBe(9);
    const spaced = keptFor('{"jsonrpc": "2.0", "id": 5, "method": "tools/list"}');
    expect(spaced.find('{"jsonrpc": "2.0", "id": "x", "method": "tools/list"}')?.id).toBe('x');
  });

  it('find nothing for a message that differs by anything but the id', () => {
    const memo = keptFor(JSON.stringify(CALL));
    for (const other of [
      { ...CALL, params: { name: 'get_project', arguments: { slug: 'b' } } },
      { ...CALL, method: 'tools/list', params: undefined },
      { jsonrpc: '2.0', method: 'tools/call', params: CALL.params },
    ])
      expect(memo.find(JSON.stringify(other)), JSON.stringify(other)).toBeUndefined();
    // The same message spelled otherwise is only a miss.
    expect(memo.find(JSON.stringify(CALL, null, 1))).toBeUndefined();
    for (const headers of [
      { ...HEADERS, 'mcp-protocol-version': '2025-06-18' },
      { ...HEADERS, accept: 'application/json' },
      { ...HEADERS, 'content-type': 'text/plain' },
      { ...HEADERS, 'mcp-method': 'tools/call' },
      { ...HEADERS, 'mcp-name': 'get_project' },
      // An empty header is not an absent one.
      { ...HEADERS, 'mcp-name': '' },
    ])
      expect(memo.find(JSON.stringify(CALL), request(headers)), JSON.stringify(headers)).toBeUndefined();
    expect(memo.find(JSON.stringify(CALL), request(HEADERS, '/mcp/docs'))).toBeUndefined();
  });

  it('take the id only where the message has it, not from an "id" inside its params', () => {
    const nested = (top: number, inner: number) =>
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_project","arguments":{"id":${inner}}},"id":${top}}`;
    const memo = keptFor(nested(1, 1));
    expect(memo.key).toBeDefined();
    expect(memo.find(nested(2, 1))?.id).toBe(2);
    expect(memo.find(nested(1, 2))).toBeUndefined();
    // The id's name spelled with an escape: its place cannot be read from the text, so nothing is kept.
    expect(
      keyOfText('{"jsonrpc":"2.0","\\u0069d":1,"method":"tools/call","params":{"name":"a","arguments":{"id":1}}}'),
    ).toBe(undefined);
    // A name that ends in an escaped quote and "id" is not an id.
    const escapedName = keptFor(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","arguments":{"x\\"id":3}}}',
    );
    expect(
      escapedName.find('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","arguments":{"x\\"id":4}}}'),
    ).toBe(undefined);
    // Two ids: JSON.parse takes the last, and so does the key.
    const twice = keptFor('{"jsonrpc":"2.0","id":1,"id":1,"method":"tools/list"}');
    expect(twice.find('{"jsonrpc":"2.0","id":1,"id":8,"method":"tools/list"}')?.id).toBe(8);
    expect(twice.find('{"jsonrpc":"2.0","id":8,"id":1,"method":"tools/list"}')).toBeUndefined();
  });

  it('give an answer only to an id written plainly: a safe integer, or a string without escapes', () => {
    const memo = keptFor(JSON.stringify(CALL));
    for (const id of ['1.5', '1e3', '9007199254740993', '"a\\"b"', '"a\\u0062"', 'null', '{}'])
      expect(memo.find(JSON.stringify(CALL).replace('"id":1', `"id":${id}`)), id).toBeUndefined();
    // Such an id is answered afresh, and not kept.
    expect(keyOf({ ...CALL, id: 'a"b' })).toBeUndefined();
  });

  it('keep a notification by its whole text, which no request finds', () => {
    const notification = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
    const memo = keptFor(notification);
    expect(memo.find(notification)).toEqual({ answer: expect.anything(), id: undefined });
    expect(memo.find('{"jsonrpc":"2.0","method":"notifications/initialized","id":1}')).toBeUndefined();
  });

  it('keep nothing for a message whose answer is not kept', () => {
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
      { ...CALL, params: { name: 'search', arguments: { q: 'x'.repeat(2600) } } },
    ])
      expect(keyOf(body), JSON.stringify(body)?.slice(0, 80)).toBeUndefined();
  });

  it('neither keep nor look into a long message, however deep it nests', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":${deep}}}}`;
    expect(memoKey(request(), text, { ...CALL })).toBeUndefined();
    expect(keptFor(JSON.stringify(CALL)).find(text)).toBeUndefined();
  });

  it('keep a message of up to 2,560 characters', () => {
    const fill = (length: number) => {
      const body = { ...CALL, params: { name: 'search', arguments: { q: '' } } };
      body.params.arguments.q = 'x'.repeat(length - JSON.stringify(body).length);
      return JSON.stringify(body);
    };
    expect(keyOfText(fill(2560))).toBeDefined();
    expect(keyOfText(fill(2561))).toBeUndefined();
  });
});

describe('answerMemo', () => {
  it('holds at most its budget of bytes, whatever is put in', () => {
    const kept = answerMemo();
    const around: [string, string] = [`{"result":${JSON.stringify({ text: 'x'.repeat(20_000) })},"id":`, '}'];
    for (let n = 0; n < 1000; n++) kept.set(`key ${n}`, preparedAnswer(200, {}, around));
    expect(kept.bytes).toBeLessThanOrEqual(kept.budget);
    expect(kept.size).toBeGreaterThan(10);
    expect(kept.get('key 999')?.around).toBe(around);
  });
});
