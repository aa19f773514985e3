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
});
