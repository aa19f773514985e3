import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../functions/projects/cursor.ts';
import { CURSOR_MAX_LENGTH } from '../../functions/projects/schema.ts';

const codec = new CursorCodec(randomBytes(32));

describe('CursorCodec', () => {
  it('round-trips the position and the filter', () => {
    const state = { after: 'leakhound', filter: { domain: 'security', stack: 'rust' } };
    expect(codec.decode(codec.encode(state))).toEqual(state);
    expect(codec.decode(codec.encode({ after: 'x', filter: {} }))).toEqual({ after: 'x', filter: {} });
  });

  it('refuses altered, truncated, foreign and oversized cursors', () => {
    const cursor = codec.encode({ after: 'leakhound', filter: {} });
    const [payload, tag] = cursor.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ a: 'trailhead', d: null, s: null })).toString('base64url');
    expect(codec.decode(`${forgedPayload}.${tag}`)).toBeNull();
    expect(codec.decode(cursor.slice(0, -3))).toBeNull();
    expect(codec.decode(payload)).toBeNull();
    expect(codec.decode(`.${tag}`)).toBeNull();
    expect(new CursorCodec(randomBytes(32)).decode(cursor)).toBeNull();
    expect(codec.decode(`${cursor}${'A'.repeat(CURSOR_MAX_LENGTH)}`)).toBeNull();
    expect(codec.decode('not-a-cursor')).toBeNull();
  });

  it('still refuses an altered cursor once its valid twin was verified and remembered', () => {
    const cursor = codec.encode({ after: 'leakhound', filter: { domain: 'security' } });
    // Twice: the second answer comes from the cache of verified cursors.
    expect(codec.decode(cursor)).toEqual({ after: 'leakhound', filter: { domain: 'security' } });
    expect(codec.decode(cursor)).toEqual({ after: 'leakhound', filter: { domain: 'security' } });
    const [payload, tag] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ a: 'trailhead', d: 'security', s: null })).toString('base64url');
    expect(codec.decode(`${forged}.${tag}`)).toBeNull();
    // Any one character changed, in the payload or in the tag.
    for (let at = 0; at < cursor.length; at++) {
      if (at === payload.length) continue;
      const swapped = cursor[at] === 'A' ? 'B' : 'A';
      const altered = `${cursor.slice(0, at)}${swapped}${cursor.slice(at + 1)}`;
      const decoded = codec.decode(altered);
      // base64url's last character may carry unused bits: an equal decoding is the same cursor.
      if (decoded !== null) expect(decoded).toEqual(codec.decode(cursor));
    }
    expect(codec.decode(cursor.slice(0, -1))).toBeNull();
    expect(codec.decode(`${cursor}A`)).toBeNull();
    // Another deployment's codec never sees this one's cache.
    expect(new CursorCodec(randomBytes(32)).decode(cursor)).toBeNull();
  });

  it('hands out the remembered state unchangeable', () => {
    const cursor = codec.encode({ after: 'x', filter: { stack: 'rust' } });
    const state = codec.decode(cursor)!;
    expect(() => {
      (state.filter as { stack?: string }).stack = 'go';
    }).toThrow(TypeError);
    expect(codec.decode(cursor)).toEqual({ after: 'x', filter: { stack: 'rust' } });
  });
});
