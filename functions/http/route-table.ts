import { RoutePattern } from './route-pattern.ts';

/** A route a path matched, with the path's parameters decoded (shared between requests: frozen). */
export interface RouteMatch<R> {
  route: R;
  params: Readonly<Record<string, string>>;
}

/**
 * Most paths whose matches are remembered. A path that matches nothing is never kept; past the
 * bound the memo starts again, so many distinct paths (a slug per request) cost what every path
 * cost before: one walk of the table.
 */
const REMEMBERED_PATHS = 1000;
/** Longest path remembered: the API's own paths are short, and a long one would only hold memory. */
const REMEMBERED_PATH_CHARS = 256;

/**
 * The routes by path template, in their order, and which of them a path matches. The walk over
 * every template (splitting the path and decoding its parameters at each) is made once per path:
 * readers ask for the same few paths again and again.
 */
export class RouteTable<R extends { path: string }> {
  private readonly entries: { route: R; pattern: RoutePattern }[];
  private readonly remembered = new Map<string, readonly RouteMatch<R>[]>();

  constructor(routes: readonly R[]) {
    this.entries = routes.map((route) => ({ route, pattern: new RoutePattern(route.path) }));
  }

  /** How many paths are remembered now. */
  get remembers(): number {
    return this.remembered.size;
  }

  /** Every route `path` matches, in table order; empty when none does. */
  matches(path: string): readonly RouteMatch<R>[] {
    const known = this.remembered.get(path);
    if (known !== undefined) return known;
    const found: RouteMatch<R>[] = [];
    for (const { route, pattern } of this.entries) {
      const params = pattern.match(path);
      if (params !== null) found.push({ route, params: Object.freeze(params) });
    }
    if (found.length > 0 && path.length <= REMEMBERED_PATH_CHARS) {
      if (this.remembered.size >= REMEMBERED_PATHS) this.remembered.clear();
      this.remembered.set(path, found);
    }
    return found;
  }
}
