import { normalizeTerm } from './terms.ts';

/**
 * A text prepared for finding index terms in it without normalizing each of its words: every
 * character folded on its own (lower case, diacritics dropped) into a string of the same length,
 * so a term found in it is at the same offset in the text. Folding a character alone gives what
 * normalizing its word gives, except for characters that fold into more or fewer characters
 * (İ, combining marks), characters outside the Basic Multilingual Plane and the capital sigma
 * (whose lower case depends on its place in the word): a text with any of these is not folded.
 */
export type FoldedText = string | null;

/** Characters that end a word, as TERM_PATTERN (terms.ts) sees them. */
const SEPARATOR = /^[\n\r\p{Z}\p{P}]$/u;
const UNFOLDABLE = /[\uD800-\uDFFF\u03A3]/;

const foldedCharacters = new Map<string, string | null>();

function foldCharacter(character: string): string | null {
  let folded = foldedCharacters.get(character);
  if (folded === undefined) {
    // normalizeTerm drops stop words, but no single character other than "a" and "i" is one.
    const normalized = character === 'a' || character === 'i' ? character : normalizeTerm(character);
    folded = normalized !== null && normalized.length === 1 ? normalized : null;
    foldedCharacters.set(character, folded);
  }
  return folded;
}

export function foldText(text: string): FoldedText {
  if (UNFOLDABLE.test(text)) return null;
  // Plain ASCII (almost every text) folds by lower case alone.
  if (/^[\x00-\x7F]*$/.test(text)) return text.toLowerCase();
  let folded = '';
  for (const character of text) {
    const one = character < '\u0080' ? character.toLowerCase() : foldCharacter(character);
    if (one === null) return null;
    folded += one;
  }
  return folded;
}

/** The offset of the first word of the text that is one of `terms`, or -1. */
export function firstTermIn(text: string, folded: string, terms: ReadonlySet<string>): number {
  let first = -1;
  for (const term of terms) {
    const limit = first === -1 ? folded.length : first;
    for (let at = folded.indexOf(term); at !== -1 && at < limit; at = folded.indexOf(term, at + 1)) {
      const end = at + term.length;
      if ((at === 0 || SEPARATOR.test(text[at - 1]!)) && (end === text.length || SEPARATOR.test(text[end]!))) {
        first = at;
        break;
      }
    }
  }
  return first;
}
