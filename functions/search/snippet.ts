import { firstTermIn, type FoldedText } from './folded-text.ts';
import { normalizeTerm, TERM_PATTERN } from './terms.ts';

export const SNIPPET_MAX_LENGTH = 200;
/** Context kept before the first match, so the reader sees what leads up to it. */
const LEAD = 60;
const ELLIPSIS = '…';

/**
 * A plain-text excerpt of at most `max` characters around the first word of `text` that is one of
 * the matched index `terms` (compared after the same normalization the index applies). Without a
 * match (the query hit only the title, say) it is the start of the text. Cuts fall between words
 * and are marked with an ellipsis. `folded` (folded-text.ts), when given, finds the match without
 * normalizing every word.
 */
export function snippet(
  text: string,
  terms: ReadonlySet<string>,
  max = SNIPPET_MAX_LENGTH,
  folded?: () => FoldedText,
): string {
  if (text.length <= max) return text;
  const prepared = folded?.() ?? null;
  const at = prepared === null ? firstMatch(text, terms) : Math.max(0, firstTermIn(text, prepared, terms));
  // A match that fits in the opening stretch shows from the very start.
  let start = at <= max - 2 * LEAD ? 0 : wordStartAfter(text, at - LEAD, at);
  // Near the end, move the window back so that it still fills the allowance.
  if (text.length - start < max - 1) start = wordStartAfter(text, text.length - (max - 1), at);
  const prefix = start > 0 ? ELLIPSIS : '';
  let end = start + max - prefix.length;
  let suffix = '';
  if (end < text.length) {
    end -= ELLIPSIS.length;
    const space = text.lastIndexOf(' ', end);
    if (space > at) end = space;
    suffix = ELLIPSIS;
  }
  return `${prefix}${text.slice(start, end).trim()}${suffix}`;
}

function firstMatch(text: string, terms: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  // Normalizing every word of a long text cost milliseconds per hit; a word whose first letter is
  // plain ASCII normalizes to that letter in lower case, so it can only match a term starting so.
  const initials = new Set([...terms].map((term) => term[0]));
  for (const word of text.matchAll(TERM_PATTERN)) {
    const initial = word[0][0]!.toLowerCase();
    if (initial < '\u0080' && !initials.has(initial)) continue;
    const term = normalizeTerm(word[0]);
    if (term !== null && terms.has(term)) return word.index;
  }
  return 0;
}

/** The start of the first word at or after `from` (but not past `limit`). */
function wordStartAfter(text: string, from: number, limit: number): number {
  if (from <= 0) return 0;
  if (text[from - 1] === ' ') return from;
  const space = text.indexOf(' ', from);
  return space === -1 || space >= limit ? Math.min(from, limit) : space + 1;
}
