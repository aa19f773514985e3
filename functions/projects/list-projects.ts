import { LRUCache } from 'lru-cache';
import { ApiError } from '../http/api-error.ts';
import { conditionalJson, representation, type Representation } from '../http/json.ts';
import { parseQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import type { ApiRequest } from '../http/types.ts';
import type { Catalog, ProjectFilter } from './catalog.ts';
import type { CursorCodec } from './cursor.ts';
import { CURSOR_MAX_LENGTH, listProjectsQuery } from './schema.ts';

/** Longest query string a page is kept by: the longest cursor (CURSOR_MAX_LENGTH), with room for the other parameters. */
const KEPT_QUERY_CHARS = 2 * CURSOR_MAX_LENGTH;

const CURSOR_WORDS = { refusal: () => invalidCursor('The cursor is not one this service issued, or it was altered.') };

/** The cursor codec, whose key is read from the storage when a page first needs it. */
export interface CursorKey {
  /** The codec once its key is loaded, else undefined. */
  current(): CursorCodec | undefined;
  load(): Promise<CursorCodec>;
}

/** What a page does with cursors: read the one it was given, make the next. */
type CursorSigner = Pick<CursorCodec, 'encode' | 'decode'>;

/** Thrown by KEYLESS when a page needs the key: the handler loads it and answers again. */
const KEY_NEEDED = Symbol('cursor key needed');
/** The codec before its key is loaded: a page without a cursor in or out never needs one. */
const KEYLESS: CursorSigner = {
  encode: () => {
    throw KEY_NEEDED;
  },
  decode: () => {
    throw KEY_NEEDED;
  },
};

/**
 * listProjects: one page of projects in catalog order. The cursor carries the position and the
 * filter it was made with; pages are cached by that position, so a repeated read costs only a
 * cursor check and a map lookup. The cursors' key is read from the storage only when a page
 * takes or makes a cursor, so a first page that holds every project needs no database.
 */
export function listProjectsHandler(catalog: Catalog, cursors: CursorKey): RouteHandler {
  const pages = new LRUCache<string, Representation>({ max: 1000 });
  // A page by the query string that asked for it, as received: the same string always asks for
  // the same page (the catalog and the cursors' key are fixed while the service runs), so a
  // client paging again, or asking the first page, skips the query's parse, the cursor check and
  // the key. Only a query that made a page is kept (a refused one is checked every time), and only
  // one of up to KEPT_QUERY_CHARS: empty `&` segments or escapes can make a valid one any length.
  const pagesByQuery = new LRUCache<string, Representation>({ max: 1000 });
  const keepsQuery = (search: string | undefined): search is string =>
    search !== undefined && search.length <= KEPT_QUERY_CHARS;

  const answer = (request: ApiRequest, codec: CursorSigner) => {
    const { limit, cursor, domain, stack } = parseQuery(request.query, listProjectsQuery, { cursor: CURSOR_WORDS });
    let filter = normalizeFilter({ domain, stack });
    let after: string | null = null;
    if (cursor !== undefined) {
      const state = codec.decode(cursor);
      if (state === null) throw CURSOR_WORDS.refusal();
      const explicit = domain !== undefined || stack !== undefined;
      if (explicit && (filter.domain !== state.filter.domain || filter.stack !== state.filter.stack)) {
        throw invalidCursor('The cursor was made for a different domain or stack filter.');
      }
      filter = state.filter;
      after = state.after;
    }

    const key = `${filter.domain ?? ''}\u0000${filter.stack ?? ''}\u0000${after ?? ''}\u0000${limit}`;
    let page = pages.get(key);
    if (page === undefined) {
      page = representation(buildPage(catalog, codec, filter, after, limit));
      pages.set(key, page);
    }
    if (keepsQuery(request.search)) pagesByQuery.set(request.search, page);
    return conditionalJson(request, page);
  };

  return (request) => {
    const known = keepsQuery(request.search) ? pagesByQuery.get(request.search) : undefined;
    if (known !== undefined) return conditionalJson(request, known);
    const codec = cursors.current();
    if (codec !== undefined) return answer(request, codec);
    try {
      return answer(request, KEYLESS);
    } catch (thrown) {
      if (thrown !== KEY_NEEDED) throw thrown;
      return cursors.load().then((loaded) => answer(request, loaded));
    }
  };
}

function buildPage(
  catalog: Catalog,
  cursors: CursorSigner,
  filter: ProjectFilter,
  after: string | null,
  limit: number,
) {
  const matches = catalog.filter(filter);
  let start = 0;
  if (after !== null) {
    const index = matches.findIndex((project) => project.slug === after);
    if (index === -1) throw invalidCursor('The cursor points at a project that is no longer listed.');
    start = index + 1;
  }
  const data = matches.slice(start, start + limit);
  const hasMore = start + limit < matches.length;
  const last = data.at(-1);
  const nextCursor = hasMore && last !== undefined ? cursors.encode({ after: last.slug, filter }) : null;
  return { data, pagination: { nextCursor, hasMore, limit } };
}

function normalizeFilter(filter: { domain: string | undefined; stack: string | undefined }): ProjectFilter {
  const result: ProjectFilter = {};
  if (filter.domain !== undefined) result.domain = filter.domain.toLowerCase();
  if (filter.stack !== undefined) result.stack = filter.stack.toLowerCase();
  return result;
}

function invalidCursor(message: string): ApiError {
  return new ApiError('invalid_cursor', message, {
    hint: 'Pass pagination.nextCursor exactly as a previous page returned it, or omit cursor to start from the first page.',
  });
}
