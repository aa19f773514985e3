import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ProjectFilter } from './catalog.ts';
import { CURSOR_MAX_LENGTH } from './schema.ts';

/** What a cursor remembers: where the last page ended and the filter it was made with. */
export interface CursorState {
  after: string;
  filter: ProjectFilter;
}

const MAC_BYTES = 16;

/**
 * Cursors already verified, by their exact text: a client paging through the list sends the
 * cursors it was given, often the same ones, and a hit skips the HMAC and the JSON parse. Only a
 * cursor whose tag verified is ever stored, and a lookup is by the whole string, so a cursor
 * altered in any character misses and is checked (and refused) as before. Bounded: a caller who
 * sends many valid cursors only evicts older ones.
 */
const VERIFIED_CURSORS_MAX = 1000;

/**
 * Opaque, tamper-evident cursors: base64url(JSON state) + "." + base64url(HMAC-SHA256 tag).
 * The tag is keyed with a per-deployment secret, so a cursor forged, truncated, or minted by
 * another deployment fails verification.
 */
export class CursorCodec {
  private readonly secret: Buffer;
  private readonly verified = new LRUCache<string, Readonly<CursorState>>({ max: VERIFIED_CURSORS_MAX });

  constructor(secret: Buffer) {
    this.secret = secret;
  }

  encode(state: CursorState): string {
    const payload = Buffer.from(
      JSON.stringify({ a: state.after, d: state.filter.domain ?? null, s: state.filter.stack ?? null }),
    ).toString('base64url');
    return `${payload}.${this.tag(payload).toString('base64url')}`;
  }

  /** The state a cursor carries, or null when it is not one of ours. Shared: not to be changed. */
  decode(cursor: string): Readonly<CursorState> | null {
    const known = this.verified.get(cursor);
    if (known !== undefined) return known;
    const state = this.verify(cursor);
    if (state !== null) this.verified.set(cursor, state);
    return state;
  }

  private verify(cursor: string): Readonly<CursorState> | null {
    if (cursor.length > CURSOR_MAX_LENGTH) return null;
    const dot = cursor.indexOf('.');
    if (dot <= 0) return null;
    const payload = cursor.slice(0, dot);
    const tag = Buffer.from(cursor.slice(dot + 1), 'base64url');
    if (tag.length !== MAC_BYTES || !timingSafeEqual(tag, this.tag(payload))) return null;
    try {
      const state: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return isEncodedState(state)
        ? Object.freeze({ after: state.a, filter: Object.freeze(withoutNulls({ domain: state.d, stack: state.s })) })
        : null;
    } catch {
      return null;
    }
  }

  private tag(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, MAC_BYTES);
  }
}

interface EncodedState {
  a: string;
  d: string | null;
  s: string | null;
}

function isEncodedState(value: unknown): value is EncodedState {
  if (typeof value !== 'object' || value === null) return false;
  const { a, d, s } = value as Record<string, unknown>;
  return typeof a === 'string' && (d === null || typeof d === 'string') && (s === null || typeof s === 'string');
}

function withoutNulls(filter: { domain: string | null; stack: string | null }): ProjectFilter {
  const result: ProjectFilter = {};
  if (filter.domain !== null) result.domain = filter.domain;
  if (filter.stack !== null) result.stack = filter.stack;
  return result;
}
