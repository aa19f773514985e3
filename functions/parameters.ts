import { z } from 'zod';
import { LIST_LIMIT, type LIST_PARAMETERS } from './projects/list-projects.ts';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './projects/schema.ts';
import type { SEARCH_PARAMETERS } from './search/search-handler.ts';
import { SEARCH_LIMIT, SEARCH_QUERY_MAX_LENGTH, SEARCH_TYPES } from './search/search-types.ts';

// The parameters of the read operations, once: the OpenAPI description documents them and the
// MCP tools take them as arguments. Descriptions use zod's own `.describe()`, which both the
// OpenAPI generator and the SDK's JSON Schema conversion read.

/** Every list parameter; the Record type makes the compiler insist on each of LIST_PARAMETERS. */
export const LIST_QUERY: Record<(typeof LIST_PARAMETERS)[number], z.ZodTypeAny> = {
  limit: z.number().int().min(LIST_LIMIT.min).max(LIST_LIMIT.max).default(LIST_LIMIT.default).describe('Page size.'),
  cursor: z.string().optional().describe('pagination.nextCursor of the previous page, exactly as it was returned.'),
  domain: z.string().optional().describe('Only projects of this domain (case-insensitive), such as `developer-tools`.'),
  stack: z.string().optional().describe('Only projects whose stack has this item (case-insensitive), such as `typescript`.'),
};

export const SEARCH_QUERY: Record<(typeof SEARCH_PARAMETERS)[number], z.ZodTypeAny> = {
  q: z.string().min(1).max(SEARCH_QUERY_MAX_LENGTH).describe('Search terms; prefixes and small typos match too.'),
  type: z.enum(SEARCH_TYPES).optional().describe('Only results of this type.'),
  limit: z.number().int().min(SEARCH_LIMIT.min).max(SEARCH_LIMIT.max).default(SEARCH_LIMIT.default).describe('Most results to return.'),
};

export const SLUG_PARAMETER = z.string().regex(SLUG_PATTERN).max(SLUG_MAX_LENGTH).describe('The project slug, such as the last segment of its page URL.');

export const JOB_ID_PARAMETER = z.string().min(1).describe('The jobId createJob returned.');

/** The Idempotency-Key of createContact. */
export const IDEMPOTENCY_KEY = z.string().uuid().describe('A new UUID per message; retry with the same key to get the same answer.');
