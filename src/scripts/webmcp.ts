/**
 * Registers a page's WebMCP tools with the browser, where it offers them. The build describes
 * the tools in a JSON data block (src/components/WebMcpTools.astro); the page's script supplies
 * how each one runs. Each tool calls the public API, so validation, idempotency and quotas are
 * the API's own, and answers as an MCP tool result: the API's JSON as structuredContent, a short
 * sentence as text, isError on a failure.
 */
import type { PageTool } from '../lib/webmcp-tools.ts';

export const PAGE_TOOLS_ELEMENT_ID = 'webmcp-tools';

/** What a tool call resolves to: the shape of an MCP CallToolResult. */
export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** Runs one call of a tool: its arguments as the agent sent them, and the API path the build gave it. */
export type ToolRunner = (input: Record<string, unknown>, api: string) => Promise<ToolResult>;

interface ModelContext {
  registerTool(tool: Omit<PageTool, 'api'> & { execute: (input: unknown) => Promise<ToolResult> }): unknown;
}

/**
 * The WebMCP draft has moved the API from navigator.modelContext (Chrome's early preview) to
 * document.modelContext; take whichever the browser has, and register on one only.
 */
function modelContext(): ModelContext | undefined {
  const holder = (target: object) => (target as { modelContext?: ModelContext }).modelContext;
  return holder(document) ?? holder(navigator);
}

export function registerPageTools(runners: Record<string, ToolRunner>): void {
  const context = modelContext();
  const data = document.getElementById(PAGE_TOOLS_ELEMENT_ID)?.textContent;
  if (context === undefined || !data) return;
  for (const { api, ...tool } of JSON.parse(data) as PageTool[]) {
    const run = runners[tool.name];
    if (run === undefined) continue;
    const execute = (input: unknown) => run(input !== null && typeof input === 'object' ? { ...input } : {}, api);
    // The page works the same without its tools: a refusal (a name taken, a schema the browser
    // rejects) is worth a warning, never an error that stops the page's own script.
    const refused = (error: unknown) => console.warn(`WebMCP tool ${tool.name} not registered:`, error);
    try {
      // The draft's registerTool returns a promise, the early preview's nothing.
      Promise.resolve(context.registerTool({ ...tool, execute })).catch(refused);
    } catch (error) {
      refused(error);
    }
  }
}

/** The API's answer as a tool result; `summary` words a success for agents that read only text. */
export async function apiResult(
  response: Response,
  summary: (body: Record<string, unknown>) => string,
): Promise<ToolResult> {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return { content: [{ type: 'text', text: summary(body) }], structuredContent: body };
  const fields = Array.isArray(body.errors)
    ? (body.errors as { field: string; problem: string }[]).map(({ field, problem }) => ` ${field} ${problem}.`)
    : [];
  const wait = response.headers.get('retry-after');
  const text = `${String(body.code ?? response.status)}: ${String(body.message ?? response.statusText)}${fields.join('')}${wait ? ` Try again in ${wait} seconds.` : ''}`;
  return { content: [{ type: 'text', text }], structuredContent: body, isError: true };
}

/** A call that got no answer (offline, connection cut): an error result the agent can retry. */
export function unreachable(retry: string): ToolResult {
  return { content: [{ type: 'text', text: `Could not reach the server. ${retry}` }], isError: true };
}
