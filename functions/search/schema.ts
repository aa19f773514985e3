import { z } from 'zod';
import { SEARCH_LIMIT, SEARCH_QUERY_MAX_LENGTH, SEARCH_TYPES } from './search-types.ts';
import { SNIPPET_MAX_LENGTH } from './snippet.ts';

/** The query of GET /api/search, as published and as enforced; `q` is trimmed before its length is checked. */
export const searchQuery = z
  .object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(SEARCH_QUERY_MAX_LENGTH)
      .describe('Search terms; prefixes and small typos match too.'),
    type: z.enum(SEARCH_TYPES).optional().describe('Only results of this type.'),
    limit: z
      .number()
      .int()
      .min(SEARCH_LIMIT.min)
      .max(SEARCH_LIMIT.max)
      .default(SEARCH_LIMIT.default)
      .describe('Most results to return.'),
  })
  .strict();

/** The 200 answer of GET /api/search. */
export const searchResponseSchema = z
  .object({
    query: z.string(),
    total: z.number().int().min(0),
    results: z.array(
      z
        .object({
          type: z.enum(SEARCH_TYPES),
          title: z.string(),
          url: z.string().url(),
          snippet: z.string().max(SNIPPET_MAX_LENGTH),
          score: z.number(),
        })
        .strict(),
    ),
  })
  .strict();
