/**
 * Search as you type on /search: after a short pause, ask GET /api/search and replace the
 * results list; the count goes to the polite live region, so screen readers hear one sentence
 * per search instead of the whole list. The address follows the query (replaceState), so a
 * reload or a shared link shows the same results. Without JavaScript the form submits to
 * /search and the server renders the same list (functions/search/search-page.ts).
 */
import {
  isSearchType,
  resultSummary,
  SEARCH_PAGE_LIMIT,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_TYPE_LABELS,
  type SearchType,
} from '../../functions/search/search-types.ts';

/** Long enough to skip the keystrokes of a word being typed, short enough to feel immediate. */
const DEBOUNCE_MS = 250;

interface Result {
  type: SearchType;
  title: string;
  url: string;
  snippet: string;
}

interface Answer {
  total?: number;
  results?: Result[];
  message?: string;
}

const form = document.querySelector<HTMLFormElement>('form.search-form');
if (form) enhance(form);

function enhance(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('#search-q')!;
  const type = form.querySelector<HTMLSelectElement>('#search-type')!;
  const status = document.querySelector<HTMLElement>('#search-status')!;
  const list = document.querySelector<HTMLOListElement>('#search-results')!;
  const api = form.dataset.api ?? '/api/search';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let shown = '';

  async function run(): Promise<void> {
    clearTimeout(timer);
    const query = input.value.trim();
    const chosen = type.value;
    const key = `${chosen}\u0000${query}`;
    if (key === shown) return;
    shown = key;
    inFlight?.abort();
    inFlight = undefined;
    const params = new URLSearchParams({ q: query });
    if (isSearchType(chosen)) params.set('type', chosen);
    history.replaceState(null, '', query === '' ? location.pathname : `${location.pathname}?${params}`);

    if (query === '') {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    if (query.length > SEARCH_QUERY_MAX_LENGTH) {
      status.textContent = `Please shorten your search to at most ${SEARCH_QUERY_MAX_LENGTH} characters.`;
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    params.set('limit', String(SEARCH_PAGE_LIMIT));
    list.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(`${api}?${params}`, {
        signal: controller.signal,
        headers: { accept: 'application/json' },
      });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (!response.ok) {
        const wait = response.headers.get('retry-after');
        status.textContent = `${answer.message ?? 'The search failed.'}${wait ? ` Try again in ${wait} seconds.` : ''}`;
        // Let the same query be tried again once the visitor presses Search.
        shown = '';
        return;
      }
      const results = answer.results ?? [];
      list.replaceChildren(...results.map(resultItem));
      status.textContent = resultSummary(query, answer.total ?? results.length, results.length);
    } catch {
      if (controller.signal.aborted) return;
      shown = '';
      status.textContent = 'Could not reach the server. Press Search to try again.';
    } finally {
      if (inFlight === controller) {
        inFlight = undefined;
        list.removeAttribute('aria-busy');
      }
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), DEBOUNCE_MS);
  });
  type.addEventListener('change', () => void run());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  // The server rendered the results for the address we arrived at; do not fetch them again. A
  // static copy of the page (the pages on a host of their own) cannot: it asks the API for them.
  shown = `${type.value}\u0000${input.value.trim()}`;
  const arrived = new URLSearchParams(location.search);
  const arrivedQuery = arrived.get('q')?.trim() ?? '';
  if (input.value.trim() === '' && arrivedQuery !== '') {
    input.value = arrivedQuery;
    const arrivedType = arrived.get('type') ?? '';
    if (isSearchType(arrivedType)) type.value = arrivedType;
    void run();
  }
}

/** The same markup the server renders for a result (functions/search/search-page.ts). */
function resultItem(result: Result): HTMLLIElement {
  const item = element('li', 'search-result');
  const heading = document.createElement('h2');
  const link = document.createElement('a');
  // Results are pages of this site: link by path, so they stay on whichever host served this page.
  const target = new URL(result.url, location.href);
  link.href = `${target.pathname}${target.search}${target.hash}`;
  link.textContent = result.title;
  heading.append(link);
  const label = element('p', 'search-result-type');
  label.textContent = SEARCH_TYPE_LABELS[result.type] ?? result.type;
  const snippet = element('p', 'search-result-snippet');
  snippet.textContent = result.snippet;
  item.append(heading, label, snippet);
  return item;
}

function element<K extends 'li' | 'p'>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}
