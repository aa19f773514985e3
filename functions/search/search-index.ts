import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { SearchDocument } from './documents.ts';
import type { SearchType } from './search-types.ts';
import { foldText, type FoldedText } from './folded-text.ts';
import { snippet } from './snippet.ts';
import { normalizeTerm, tokenize } from './terms.ts';

/** What each result keeps from its document, stored in the index so no other file is needed. */
interface StoredFields {
  type: SearchType;
  title: string;
  url: string;
  text: string;
}

/** One result: `url` is a path on this site. */
export interface SearchHit {
  type: SearchType;
  title: string;
  url: string;
  snippet: string;
  score: number;
}

export interface SearchOutcome {
  /** Every match, of which `hits` are the best `limit`. */
  total: number;
  hits: SearchHit[];
}

/**
 * The index options. MiniSearch.loadJSON needs the very options the index was built with (the
 * serialized form holds terms, not the functions that made them), so build and load both use
 * this one object. Title counts most, then headings and tags, then the text.
 */
const OPTIONS: Options<SearchDocument> = {
  idField: 'id',
  fields: ['title', 'headings', 'tags', 'text'],
  storeFields: ['type', 'title', 'url', 'text'],
  extractField: (document, field) => {
    const value = document[field as keyof SearchDocument];
    return Array.isArray(value) ? value.join(' ') : value;
  },
  tokenize,
  processTerm: normalizeTerm,
  searchOptions: {
    boost: { title: 4, headings: 2, tags: 2, text: 1 },
    // Prefixes find a word still being typed; from a single character they would find nearly everything.
    prefix: (term) => term.length >= 2,
    // One typo per five letters; shorter words must be spelled right, or "api" would find "app".
    fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    combineWith: 'OR',
  },
};

/**
 * The site's one search index: built at build time from every project, doc page, API operation
 * and MCP tool (src/pages/search-index.json.ts writes it), loaded by the server at start.
 */
export class SearchIndex {
  /** Each document's folded text (folded-text.ts), made on its first snippet: as many as there are documents. */
  private readonly foldedTexts = new Map<string, FoldedText>();

  private constructor(private readonly engine: MiniSearch<SearchDocument>) {}

  static build(documents: readonly SearchDocument[]): SearchIndex {
    const engine = new MiniSearch<SearchDocument>(OPTIONS);
    engine.addAll(documents);
    return new SearchIndex(engine);
  }

  /** The index from the JSON `JSON.stringify(index)` wrote. */
  static fromJSON(json: string): SearchIndex {
    return new SearchIndex(MiniSearch.loadJSON<SearchDocument>(json, OPTIONS));
  }

  /** The serialized form, index and stored fields together; JSON.stringify calls it. */
  toJSON(): ReturnType<MiniSearch['toJSON']> {
    return this.engine.toJSON();
  }

  /**
   * The best `limit` matches for a query, best first, optionally of one type only. Only those get
   * a result and a snippet: the others are counted, not sorted (a common word matches most of
   * the documents at 2,000 projects). The order is the one MiniSearch's own search gives (by
   * score, ties in the order the engine found them), which it used to produce.
   */
  search(query: string, options: { type?: SearchType | undefined; limit: number }): SearchOutcome {
    const { type, limit } = options;
    const internals = engineInternals(this.engine);
    if (internals === undefined) {
      const results = this.engine.search(
        query,
        type === undefined ? {} : { filter: (result) => stored(result).type === type },
      );
      return { total: results.length, hits: results.slice(0, limit).map((result) => this.hit(result)) };
    }
    let total = 0;
    const best: SearchResult[] = [];
    for (const [documentId, { score: termScore, terms, match }] of internals.executeQuery(query)) {
      const fields = internals._storedFields.get(documentId)!;
      if (type !== undefined && fields.type !== type) continue;
      total++;
      // MiniSearch's search: a document that matched more of the query's words counts more.
      const score = termScore * (terms.length || 1);
      if (best.length === limit && !(score > best[limit - 1]!.score)) continue;
      // After every result that scores as much: a stable sort keeps ties in the order found.
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      const id = internals._documentIds.get(documentId) as string;
      best.splice(at, 0, { ...fields, id, score, terms: Object.keys(match), queryTerms: terms, match });
      if (best.length > limit) best.pop();
    }
    return { total, hits: best.map((result) => this.hit(result)) };
  }

  private hit(result: SearchResult): SearchHit {
    const { type, title, url, text } = stored(result);
    const folded = () => {
      let prepared = this.foldedTexts.get(result.id as string);
      if (prepared === undefined) this.foldedTexts.set(result.id as string, (prepared = foldText(text)));
      return prepared;
    };
    return {
      type,
      title,
      url,
      snippet: snippet(text, new Set(result.terms), undefined, folded),
      score: Math.round(result.score * 1000) / 1000,
    };
  }
}

/** MiniSearch 7's raw matches and stored fields, which its `search` turns into sorted results. */
interface EngineInternals {
  executeQuery(query: string): Map<number, { score: number; terms: string[]; match: SearchResult['match'] }>;
  _documentIds: Map<number, unknown>;
  _storedFields: Map<number, StoredFields>;
}

/** The internals, or undefined when another MiniSearch keeps them otherwise (then its own `search` serves). */
function engineInternals(engine: MiniSearch<SearchDocument>): EngineInternals | undefined {
  const internals = engine as unknown as Partial<EngineInternals>;
  return typeof internals.executeQuery === 'function' &&
    internals._documentIds instanceof Map &&
    internals._storedFields instanceof Map
    ? (internals as EngineInternals)
    : undefined;
}

function stored(result: SearchResult): StoredFields {
  return result as SearchResult & StoredFields;
}
