import { publicUrl, type PublicOrigins } from '../config/public-urls.ts';
import { markdownTwinPath } from '../site/markdown-twin.ts';
import { SEARCH_PAGE, type SearchPageState } from './search-page.ts';
import { SEARCH_TYPE_LABELS, SEARCH_TYPES } from './search-types.ts';

/**
 * The search page as Markdown (/search.md, and /search with Accept: text/markdown), from the same
 * state the HTML page is filled with: the announced outcome, then each result as an absolute link
 * to the Markdown twin of the page it names. Without a query it says how to ask.
 */
export function searchAsMarkdown(state: SearchPageState, origins: PublicOrigins): string {
  const { siteUrl } = origins;
  const lines = [`# ${SEARCH_PAGE.title}`, ''];
  if (state.query === '') {
    lines.push(
      `${SEARCH_PAGE.description}`,
      '',
      `- Results as Markdown: ${publicUrl(origins, '/search.md?q=your+terms')}`,
      `- Only one kind of result: add \`&type=\` with one of ${SEARCH_TYPES.map((type) => `\`${type}\``).join(', ')}`,
      `- Results as JSON: ${publicUrl(origins, '/api/v1/search?q=your+terms')}`,
    );
  } else {
    lines.push(`Search for: ${inlineText(state.query)}`);
    if (state.type !== undefined) lines.push(`Showing: ${SEARCH_TYPE_LABELS[state.type]}`);
    lines.push('', inlineText(state.status ?? ''));
    const hits = state.hits ?? [];
    if (hits.length > 0) lines.push('');
    hits.forEach((hit, position) => {
      const title = inlineText(hit.title).replace(/[[\]]/g, '\\$&');
      lines.push(
        `${position + 1}. [${title}](${siteUrl}${markdownTwinPath(hit.url)}) (${SEARCH_TYPE_LABELS[hit.type]}): ${inlineText(hit.snippet)}`,
      );
    });
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Text a visitor typed, or text cut from a document, on one line of Markdown: line breaks become
 * spaces and characters that would start markup (or raw HTML) are escaped.
 */
function inlineText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_<>#|]/g, '\\$&');
}
