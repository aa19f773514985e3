import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../functions/search/search-index.ts';
import { goldenCases, goldenDocuments, goldenFixture, GOLDEN_SIZES } from '../support/search-golden.ts';

/**
 * The search answers exactly as recorded (scripts/record-search-golden.ts): the same results in
 * the same order, the same totals, scores and snippets, for words, prefixes, typos, several
 * words, stack names, unicode, quotes and queries that find nothing. The index goes through its
 * JSON form first, as the server loads it.
 */
describe.each(GOLDEN_SIZES)('the search at %i projects', (size) => {
  const index = SearchIndex.fromJSON(JSON.stringify(SearchIndex.build(goldenDocuments(size))));
  const recorded = JSON.parse(readFileSync(goldenFixture(size), 'utf8')) as unknown[];

  it('has an answer recorded for every case', () => {
    expect(recorded.length).toBe(goldenCases().length);
  });

  it.each(goldenCases().map((golden, n) => [JSON.stringify(golden.query), golden.options, n] as const))(
    'answers %s %o as recorded',
    (_, options, n) => {
      const { query } = goldenCases()[n]!;
      expect({ query, options, ...index.search(query, options) }).toEqual(recorded[n]);
    },
  );
});
