/**
 * Plain text out of Markdown for the search index: what a reader sees, without markup. A few
 * regular expressions are enough here because the text is only matched and quoted in snippets,
 * never rendered; the pages themselves go through Astro's Markdown pipeline.
 */

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;

/** The text of each ATX heading (`## Why`), outside code blocks. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading?.[1]) headings.push(inlineText(heading[1]));
  }
  return headings;
}

/** The whole document as one line of plain text, whitespace collapsed. Code is kept as text. */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      lines.push(line);
      continue;
    }
    // Reference definitions, horizontal rules and table separators carry no words.
    if (
      /^\s*\[[^\]]+\]:\s/.test(line) ||
      /^\s*([-*_])(\s*\1){2,}\s*$/.test(line) ||
      /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line)
    )
      continue;
    const body = line
      .replace(/^\s*#{1,6}\s+/, '')
      .replace(/\s#+\s*$/, '')
      .replace(/^\s*(>\s?)+/, '')
      .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, '');
    lines.push(inlineText(body));
  }
  return collapse(lines.join(' '));
}

/** Inline markup removed: images and links keep their text, emphasis and code lose their marks. */
function inlineText(text: string): string {
  return collapse(
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/[*`]+|~~/g, '')
      // Underscores mark emphasis only at word edges; inside a word (rate_limited) they belong to it.
      .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
      .replace(/\|/g, ' '),
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
