import { createHash } from 'node:crypto';

/** A strong entity tag (RFC 9110 section 8.8.3) derived from the exact bytes of a representation. */
export function strongEtag(body: string | Buffer): string {
  return etagOfDigest(createHash('sha256').update(body).digest());
}

/** The tag strongEtag gives, from the SHA-256 digest of the bytes (for bytes hashed in chunks). */
export function etagOfDigest(sha256: Buffer): string {
  return `"${sha256.toString('base64url').slice(0, 27)}"`;
}

/**
 * Whether If-None-Match matches the current tag (RFC 9110 section 13.1.2): `*` or any listed
 * tag, compared weakly as the RFC requires for this header.
 */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  // What a client sends back is most often the tag as it got it: no splitting, no copies then.
  if (ifNoneMatch === etag) return true;
  const current = etag.replace(/^W\//, '');
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag.replace(/^W\//, '') === current) return true;
  }
  return false;
}
