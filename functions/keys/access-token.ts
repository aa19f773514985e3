import { createHmac, timingSafeEqual } from 'node:crypto';

const ACCESS_TOKEN_PREFIX = 'at_';
const TAG_BYTES = 32;

/**
 * Short-lived bearer tokens from the client-credentials grant: `at_` + base64url({k, e}) + "." +
 * HMAC-SHA256 tag. Stateless, so issuing one writes nothing; the key behind it is still checked
 * on every use, so a token never outlives its key.
 */
export class AccessTokens {
  constructor(private readonly secret: Buffer) {}

  issue(keyId: string, expiresAt: number): string {
    const payload = Buffer.from(JSON.stringify({ k: keyId, e: Math.floor(expiresAt / 1000) })).toString('base64url');
    return `${ACCESS_TOKEN_PREFIX}${payload}.${this.tag(payload)}`;
  }

  /** The key id a token stands for while it is unexpired and genuine, else null. */
  verify(token: string, now = Date.now()): string | null {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 512) return null;
    const [payload, tag] = token.slice(ACCESS_TOKEN_PREFIX.length).split('.');
    if (payload === undefined || tag === undefined) return null;
    const expected = Buffer.from(this.tag(payload), 'base64url');
    const given = Buffer.from(tag, 'base64url');
    if (given.length !== TAG_BYTES || !timingSafeEqual(given, expected)) return null;
    try {
      const { k, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown; e?: unknown };
      return typeof k === 'string' && typeof e === 'number' && e * 1000 > now ? k : null;
    } catch {
      return null;
    }
  }

  private tag(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
