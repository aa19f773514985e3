import { z } from 'zod';
import { SEARCH_TYPES } from './search-types.ts';
import { SNIPPET_MAX_LENGTH } from './snippet.ts';

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
