import { z } from 'zod';
import { contactMessageSchema, contactResultSchema, idempotencyKeyHeader } from '../contact/schema.ts';
import { jobCreatedSchema, jobIdParameter, jobRequestSchema, jobSchema } from '../jobs/schema.ts';
import { DEFAULT_TASK, TASK_NAMES } from '../jobs/tasks.ts';
import { OPERATIONS, type OperationId } from '../operations/operations.ts';
import {
  listProjectsQuery,
  projectListSchema,
  projectSchema,
  slugParameter,
  type Project,
} from '../projects/schema.ts';
import { searchQuery, searchResponseSchema } from '../search/schema.ts';
import { sandboxPingSchema } from '../service/schema.ts';
import { COMPARE_LIMIT, compareProjects, comparisonSchema } from './compare-projects.ts';
import { AMONG_OTHERS, ASKED_FOR, projectLink, projectSlugOf } from './project-resource.ts';
import { queryOf, READ_ONLY, stringArgument, type ToolContext, type ToolDefinition } from './tool-registry.ts';

/** What the product tools run with: the API, and the site whose project resources their results link to. */
interface ProductContext extends ToolContext {
  siteUrl: string;
}

type ProductTool = ToolDefinition<ProductContext>;
type ProjectNamed = Pick<Project, 'slug' | 'title' | 'description'>;
type SearchResponse = z.infer<typeof searchResponseSchema>;

/** The path of an operation with its `{parameter}` filled in. */
function pathOf(operationId: OperationId, parameter?: string): string {
  const { path } = OPERATIONS[operationId];
  return parameter === undefined ? path : path.replace(/\{[^}]+\}/, encodeURIComponent(parameter));
}

/** A read tool: its arguments (but the path parameter) become the operation's query string. */
function readTool(
  operationId: OperationId,
  tool: Omit<ProductTool, 'annotations' | 'run'>,
  pathArgument?: string,
): ProductTool {
  return {
    ...tool,
    annotations: READ_ONLY,
    run: (args, { api }) => {
      if (pathArgument === undefined) return api({ method: 'GET', path: pathOf(operationId), query: queryOf(args) });
      const rest = Object.fromEntries(Object.entries(args).filter(([name]) => name !== pathArgument));
      return api({
        method: 'GET',
        path: pathOf(operationId, stringArgument(args, pathArgument)),
        query: queryOf(rest),
      });
    },
  };
}

/**
 * The product tools of /mcp. Each one is an operation of the HTTP API called in process (see
 * api-caller.ts), so validation, quotas, idempotency and sandbox mode are the API's own; only
 * compare_projects adds something, and it reads through the batch operation.
 */
export const PRODUCT_TOOLS: readonly ProductTool[] = [
  readTool('listProjects', {
    name: 'list_projects',
    title: 'List projects',
    description:
      "List the portfolio's projects, newest first, optionally only one domain or one stack item. Returns {data, pagination}; when pagination.hasMore is true, call again with cursor = pagination.nextCursor (the cursor keeps the filter).",
    input: listProjectsQuery,
    output: projectListSchema,
    app: 'project-gallery',
    // The catalog is the build's: the same arguments list the same page (cursors hold no time).
    reusable: true,
    links: (body, { siteUrl }) =>
      (body as { data: ProjectNamed[] }).data.map((project) => projectLink(siteUrl, project, AMONG_OTHERS)),
  }),
  readTool(
    'getProject',
    {
      name: 'get_project',
      title: 'Get a project',
      description:
        'Get one project by its slug (from list_projects or search): title, description, stack, domain, year, links. Its full write-up is the resource of the same project.',
      input: z.object({ slug: slugParameter }).strict(),
      output: projectSchema,
      app: 'project-card',
      reusable: true,
      links: (body, { siteUrl }) => [projectLink(siteUrl, body as ProjectNamed, ASKED_FOR)],
    },
    'slug',
  ),
  readTool('search', {
    name: 'search',
    title: 'Search the site',
    description:
      "Full-text search over projects, documentation pages, API operations and MCP tools; prefixes and small typos match. Returns {query, total, results} with each result's type, title, url and snippet. Use type to narrow, e.g. type=project.",
    input: searchQuery,
    output: searchResponseSchema,
    // The index is made at build time from the projects, docs, operations and tools.
    reusable: true,
    links: (body, { siteUrl }) => searchLinks(body as SearchResponse, siteUrl),
  }),
  {
    name: 'submit_contact',
    title: 'Send the owner a message',
    description:
      "Send the portfolio's owner a message (name, email, message). Make one new UUID for idempotency_key per message and reuse it on every retry: the message is stored once and a retry returns the first answer. Quota: a few messages per client per window; in sandbox mode the owner never sees it.",
    input: contactMessageSchema.extend({ idempotency_key: idempotencyKeyHeader }),
    output: contactResultSchema,
    app: 'contact-form',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: ({ idempotency_key: key, ...message }, { api }) =>
      api({
        method: 'POST',
        path: pathOf('createContact'),
        headers: key === undefined ? {} : { 'idempotency-key': typeof key === 'string' ? key : JSON.stringify(key) },
        body: message,
      }),
  },
  {
    name: 'create_job',
    title: 'Start a job',
    description: `Start an asynchronous job: task ${TASK_NAMES.join(', ')} (no arguments runs ${DEFAULT_TASK}). Returns {jobId, status, pollUrl} at once; then call get_job with the jobId until status is succeeded or failed.`,
    input: jobRequestSchema,
    output: jobCreatedSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, { api }) => api({ method: 'POST', path: pathOf('createJob'), body: args }),
  },
  readTool(
    'getJobStatus',
    {
      name: 'get_job',
      title: 'Get a job',
      description:
        'The status, progress (0 to 1) and, once succeeded, the result of a job create_job started. Poll until status is succeeded or failed.',
      input: z.object({ job_id: jobIdParameter }).strict(),
      output: jobSchema,
    },
    'job_id',
  ),
  readTool('sandboxPing', {
    name: 'sandbox_ping',
    title: 'Check sandbox mode',
    description:
      'Answers {pong: true, sandbox}: whether this connection runs in sandbox mode. Sandbox mode comes from /mcp?sandbox=true, an X-Sandbox: true header or a test key on the MCP request, and applies to every tool call on it.',
    input: z.object({}).strict(),
    output: sandboxPingSchema,
  }),
  {
    name: 'compare_projects',
    title: 'Compare projects',
    description: `Compare ${COMPARE_LIMIT.min} to ${COMPARE_LIMIT.max} projects by slug in one consistent read: the projects themselves, the stack items they share, what each uses alone, their domains and their year span. Useful to answer "which of these fits X" questions.`,
    input: z
      .object({
        slugs: z
          .array(slugParameter)
          .min(COMPARE_LIMIT.min)
          .max(COMPARE_LIMIT.max)
          .describe('Slugs of the projects to compare, in the order to show them.'),
      })
      .strict(),
    output: comparisonSchema,
    app: 'project-comparison',
    annotations: READ_ONLY,
    run: (args, context) => compareProjects(args, context.api),
    links: (body, { siteUrl }) =>
      (body as { projects: ProjectNamed[] }).projects.map((project) => projectLink(siteUrl, project, ASKED_FOR)),
  },
];

/** The project results of a search as links (title from the result; its snippet is a match, not a description). */
function searchLinks({ results }: SearchResponse, siteUrl: string) {
  return results.flatMap((result) => {
    const slug = result.type === 'project' ? projectSlugOf(siteUrl, result.url) : undefined;
    return slug === undefined ? [] : [projectLink(siteUrl, { slug, title: result.title }, AMONG_OTHERS)];
  });
}
