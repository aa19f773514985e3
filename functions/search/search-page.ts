import type { SearchHit } from './search-index.ts';
import { SEARCH_TYPE_LABELS, SEARCH_TYPES, type SearchType } from './search-types.ts';
import { escapeHtml } from '../http/html.ts';

/** What the search page says about itself: the HTML page (src/pages/search.astro) and its Markdown twin. */
export const SEARCH_PAGE = {
  title: 'Search',
  description: 'Search the projects, the documentation and the API operations.',
} as const;

/**
 * The slots the prerendered search page (src/pages/search.astro) leaves for the server. Kept
 * beside the code that fills them, so the page and the filler cannot disagree on a name.
 */
export const SEARCH_PAGE_SLOTS = {
  query: '{{query}}',
  options: '{{options}}',
  status: '{{status}}',
  results: '{{results}}',
  /** The query string of the page's Markdown twin (`?q=...`), so the head links the twin of these results. */
  twinQuery: '{{twinQuery}}',
} as const;

export interface SearchPageState {
  query: string;
  type?: SearchType | undefined;
  /** The sentence announced above the results (a count, or why there are none). */
  status?: string;
  hits?: readonly SearchHit[];
}

/**
 * The search page for one request, for browsers without JavaScript: the visitor's query back in
 * the box, the type filter as chosen, and the results, every piece of text HTML-escaped.
 * The markup of a result matches what src/scripts/search.ts builds.
 */
export class SearchPage {
  constructor(private readonly template: string) {}

  render(state: SearchPageState = { query: '' }): string {
    const slots = new Map<string, string>([
      [SEARCH_PAGE_SLOTS.query, escapeHtml(state.query)],
      [SEARCH_PAGE_SLOTS.options, typeOptions(state.type)],
      [SEARCH_PAGE_SLOTS.status, escapeHtml(state.status ?? '')],
      [SEARCH_PAGE_SLOTS.results, (state.hits ?? []).map(resultItem).join('')],
      [SEARCH_PAGE_SLOTS.twinQuery, escapeHtml(searchTwinQuery(state))],
    ]);
    // One pass over the template: text put into a slot is never searched for slots again.
    return this.template.replace(
      /\{\{(?:query|options|status|results|twinQuery)\}\}/g,
      (slot) => slots.get(slot) ?? '',
    );
  }
}

/** The query string that asks /search.md for the same search: `?q=...&type=...`, or nothing for the empty page. */
export function searchTwinQuery({ query, type }: Pick<SearchPageState, 'query' | 'type'>): string {
  if (query === '') return '';
  const params = new URLSearchParams({ q: query, ...(type === undefined ? {} : { type }) });
  return `?${params.toString()}`;
}

function typeOptions(selected: SearchType | undefined): string {
  const option = (value: string, label: string) =>
    `<option value="${value}"${value === (selected ?? '') ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  return [option('', 'Everything'), ...SEARCH_TYPES.map((type) => option(type, SEARCH_TYPE_LABELS[type]))].join('');
}

function resultItem(hit: SearchHit): string {
  return (
    '<li class="search-result">' +
    `<h2><a href="${escapeHtml(hit.url)}">${escapeHtml(hit.title)}</a></h2>` +
    `<p class="search-result-type">${escapeHtml(SEARCH_TYPE_LABELS[hit.type])}</p>` +
    `<p class="search-result-snippet">${escapeHtml(hit.snippet)}</p>` +
    '</li>'
  );
}
