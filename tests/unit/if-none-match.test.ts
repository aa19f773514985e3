import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits, strongEtag } from '../../functions/http/etag.ts';

describe('If-None-Match against the current tag (RFC 9110 section 13.1.2, weak comparison)', () => {
  const tag = strongEtag('{"a":1}');
  it.each([
    ['the tag as sent', tag, true],
    ['the tag marked weak', `W/${tag}`, true],
    ['the tag in a list', `"other", ${tag}`, true],
    ['any tag', '*', true],
    ['another tag', '"other"', false],
    ['a list without it', '"a", "b"', false],
    ['the tag without its quotes', tag.slice(1, -1), false],
  ])('%s', (_label, header, hits) => {
    expect(ifNoneMatchHits(header, tag)).toBe(hits);
  });
  it('no header is no match', () => expect(ifNoneMatchHits(undefined, tag)).toBe(false));
});
