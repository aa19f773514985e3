/**
 * Records the search's golden answers (tests/fixtures/search-golden/) with the search as it is
 * now. Run it only when a change of answers is intended, and say so in the commit.
 *   node --import tsx scripts/record-search-golden.ts
 */
import { writeFileSync } from 'node:fs';
import { SearchIndex } from '../functions/search/search-index.ts';
import { goldenCases, goldenDocuments, goldenFixture, GOLDEN_SIZES } from '../tests/support/search-golden.ts';

for (const size of GOLDEN_SIZES) {
  const index = SearchIndex.fromJSON(JSON.stringify(SearchIndex.build(goldenDocuments(size))));
  const answers = goldenCases().map(({ query, options }) => ({ query, options, ...index.search(query, options) }));
  // One answer a line: a changed answer shows as one changed line.
  writeFileSync(goldenFixture(size), `[\n${answers.map((answer) => JSON.stringify(answer)).join(',\n')}\n]\n`);
  process.stdout.write(`${answers.length} answers at ${size} projects\n`);
}
