import { markdownTwinText } from '../site/twin-text.ts';
import { z } from 'zod';
import type { DocPage } from '../site/doc-page.ts';
import { ApiError } from '../http/api-error.ts';
import { OPERATIONS } from '../operations/operations.ts';
import { searchQuery, searchResponseSchema } from '../search/schema.ts';
import {
  queryOf,
  READ_ONLY,
  refuseArguments,
  stringArgument,
  type ToolContext,
  type ToolDefinition,
} from './tool-registry.ts';

export interface DocsContext extends ToolContext {
  docs: readonly DocPage[];
  siteUrl: string;
}

const docSummary = z.object({
  path: z.string().describe('Pass it to get_doc.'),
  title: z.string(),
  description: z.string(),
  url: z.string().url().describe('The page for people.'),
  markdownUrl: z.string().url().describe('The same page as Markdown; also the URI of its resource.'),
});

const NO_ARGUMENTS = z.object({}).strict();

const DOC_PATH_MAX = 200;
const docPath = z.string().min(1).max(DOC_PATH_MAX).describe('The page path, such as /auth or /developers/cli.');

/** The documentation tools of /mcp/docs. Search goes through the API's search operation, limited to documents. */
export const DOCS_TOOLS: readonly ToolDefinition<DocsContext>[] = [
  {
    name: 'list_docs',
    title: 'List documentation pages',
    description:
      'Every documentation page of the portfolio API (getting started, auth, pricing, sandbox, CLI, SDK, deprecation, the agent guide) with its path and summary. Read one with get_doc.',
    input: NO_ARGUMENTS,
    output: z.object({ docs: z.array(docSummary) }),
    annotations: READ_ONLY,
    reusable: true,
    run: async (args, { docs, siteUrl }) => {
      refuseArguments(args, []);
      return { status: 200, body: { docs: docs.map((doc) => summary(doc, siteUrl)) } };
    },
  },
  {
    name: 'get_doc',
    title: 'Read a documentation page',
    description:
      'The full Markdown of one documentation page, by the path list_docs or search_docs gave (such as /developers/cli; a leading slash and a .md suffix are optional).',
    input: z.object({ path: docPath }).strict(),
    output: docSummary.extend({ markdown: z.string() }),
    annotations: READ_ONLY,
    reusable: true,
    run: async (args, { docs, siteUrl }) => {
      refuseArguments(args, ['path']);
      const doc = findDoc(docs, docPathArgument(args));
      return {
        status: 200,
        body: { ...summary(doc, siteUrl), markdown: markdownTwinText(doc.markdown, siteUrl, doc.path) },
      };
    },
  },
  {
    name: 'search_docs',
    title: 'Search the documentation',
    description:
      'Full-text search over the documentation pages only (prefixes and small typos match). Returns {query, total, results}; read a hit with get_doc.',
    input: searchQuery.omit({ type: true }),
    output: searchResponseSchema,
    annotations: READ_ONLY,
    reusable: true,
    run: async (args, { api }) => {
      refuseArguments(args, ['q', 'limit']);
      const query = queryOf(args);
      query.set('type', 'doc');
      return api({ method: 'GET', path: OPERATIONS.search.path, query });
    },
  },
];

function summary(doc: DocPage, siteUrl: string): z.infer<typeof docSummary> {
  return {
    path: doc.path,
    title: doc.title,
    description: doc.description,
    url: `${siteUrl}${doc.path}`,
    markdownUrl: `${siteUrl}${doc.path}.md`,
  };
}

const LIST_HINT = 'Call list_docs for every path.';

/**
 * get_doc's path, refused as bad input (not as a missing page) when it is not a string of the
 * length its input schema asks for.
 */
function docPathArgument(args: Record<string, unknown>): string {
  const path = stringArgument(args, 'path', LIST_HINT);
  if (!docPath.safeParse(path).success) {
    throw new ApiError('invalid_parameter', `Argument "path" must be 1 to ${DOC_PATH_MAX} characters long.`, {
      hint: LIST_HINT,
    });
  }
  return path;
}

/** `developers/cli`, `/developers/cli` and `/developers/cli.md` all name the same page. */
function findDoc(docs: readonly DocPage[], path: string): DocPage {
  const wanted = `/${path.trim().replace(/^\/+/, '').replace(/\.md$/, '')}`;
  const doc = docs.find((candidate) => candidate.path === wanted);
  if (doc === undefined) {
    throw new ApiError('not_found', `No documentation page at "${wanted.slice(0, 200)}".`, { hint: LIST_HINT });
  }
  return doc;
}
