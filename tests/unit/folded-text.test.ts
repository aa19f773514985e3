import { describe, expect, it } from 'vitest';
import { foldText } from '../../functions/search/folded-text.ts';
import { snippet } from '../../functions/search/snippet.ts';
import { normalizeTerm, tokenize } from '../../functions/search/terms.ts';

const FILLER = 'Some words before the match, enough of them to push it past the opening stretch of a snippet. '.repeat(
  3,
);

/** Texts where folding each character alone could go wrong, each with its words after a long lead. */
const TEXTS = [
  'Skärgård Zürich naïve café façade',
  'ΟΔΟΣ οδος Σοφία',
  'İstanbul istanbul',
  'e\u0301te\u0301 été',
  'emoji 😀 then rust',
  'Straße strasse',
  'C# and C++ and F#',
  'rate_limited rate limited',
  '日本語のテキスト 日本語',
  '한국어 텍스트',
  'ﬁle file',
  'rust—rusty, (rust) rust.',
].map((words) => `${FILLER}${words} ${FILLER}`);

describe('snippets from folded text', () => {
  it('start at the same word as when every word is normalized', () => {
    for (const text of TEXTS) {
      const words = tokenize(text)
        .map(normalizeTerm)
        .filter((term): term is string => term !== null);
      const cases = [...new Set(words)].map((term) => new Set([term]));
      cases.push(new Set(['missing']), new Set(), new Set(words.slice(-3)));
      for (const terms of cases) {
        expect(snippet(text, terms, undefined, () => foldText(text))).toBe(snippet(text, terms));
      }
    }
  });

  it('keeps offsets: a folded text has the length of its text, or is not made', () => {
    for (const text of TEXTS) {
      const folded = foldText(text);
      if (folded !== null) expect(folded.length).toBe(text.length);
    }
    expect(foldText('ΟΔΟΣ')).toBeNull();
    expect(foldText('Zürich')).toBe('zurich');
  });
});
