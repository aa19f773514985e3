/**
 * How text becomes index terms, shared by the index (build and load must agree, see
 * search-index.ts) and by snippets, which look for the same terms in the stored text.
 */

/** Splits on white space and punctuation, as MiniSearch does by default. */
const TERM_SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;
/** A run of characters between separators, with its position. */
export const TERM_PATTERN = /[^\n\r\p{Z}\p{P}]+/gu;

/** Words too common to tell documents apart; a query of only these finds nothing. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'how',
  'i',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'was',
  'what',
  'with',
]);

export function tokenize(text: string): string[] {
  return text.split(TERM_SEPARATOR);
}

/**
 * Lower case without diacritics, so "skargard" finds "Skärgård"; stop words are dropped.
 * Symbols the separator keeps (+, #) stay, so "c#" and "c++" remain distinct terms.
 */
export function normalizeTerm(term: string): string | null {
  const normalized = term
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return normalized === '' || STOP_WORDS.has(normalized) ? null : normalized;
}
