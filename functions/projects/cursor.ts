import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProjectFilter } from './catalog.ts';
import { CURSOR_MAX_LENGTH } from './schema.ts';

/** What a cursor remembers: where the last page ended and the filter it was made with. */
export interface CursorState {
  after: string;
  filter: ProjectFilter;
}

const MAC_BYTES = 16;

/**
 * Opaque, tamper-evident cursors: base64url(JSON state) + "." + base64url(HMAC-SHA256 tag).
 * The tag is keyed with a per-deployment secret, so a cursor forged, truncated, or minted by
 * another deployment fails verification.
 */
export class CursorCodec {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    this.secret = secret;
  }

  encode(state: CursorState): string {
    const payload = Buffer.from(
      JSON.stringify({ a: state.after, d: state.filter.domain ?? null, s: state.filter.stack ?? null }),
    ).toString('base64url');
    return `${payload}.${this.tag(payload).toString('base64url')}`;
  }

  /** The state a cursor carries, or null when it is not one of ours. */
  decode(cursor: string): CursorState | null {
    if (cursor.length > CURSOR_MAX_LENGTH) return null;
    const dot = cursor.indexOf('.');
    if (dot <= 0) return null;
    const payload = cursor.slice(0, dot);
    const tag = Buffer.from(cursor.slice(dot + 1), 'base64url');
    if (tag.length !== MAC_BYTES || !timingSafeEqual(tag, this.tag(payload))) return null;
    try {
      const state: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return isEncodedState(state)
        ? { after: state.a, filter: withoutNulls({ domain: state.d, stack: state.s }) }
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
