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

/**
 * Runs one call of a tool: its arguments as the agent sent them, the API path the build gave it,
 * and the input schema the tool declares.
 */
export type ToolRunner = (
  input: Record<string, unknown>,
  api: string,
  inputSchema: PageTool['inputSchema'],
) => Promise<ToolResult>;

type PageToolWithRun = Omit<PageTool, 'api'> & { execute: (input: unknown) => Promise<ToolResult> };

/**
 * The browser's side, as the WebMCP draft defines it and Chrome ships it (document.modelContext):
 * registerTool resolves once the tool is registered, rejects a name already taken, and removes
 * the tool when the signal aborts. There is no unregisterTool.
 */
interface ModelContext {
  registerTool(tool: PageToolWithRun, options?: { signal?: AbortSignal }): Promise<undefined> | undefined;
}

/**
 * document.modelContext, where the draft and Chrome put it; navigator.modelContext is the early
 * preview's place, kept because reading one more property costs nothing. Register on one only.
 */
function modelContext(): ModelContext | undefined {
  const holder = (target: object) => (target as { modelContext?: ModelContext }).modelContext;
  return holder(document) ?? holder(navigator);
}

/**
 * Whether the browser turns a form with a toolname into a tool itself (declarative WebMCP): it
 * then gives an agent's submit event agentInvoked, and a second tool of that name would be refused.
 */
function declaredByForm(name: string): boolean {
  return (
    'agentInvoked' in SubmitEvent.prototype && document.querySelector(`form[toolname="${CSS.escape(name)}"]`) !== null
  );
}

/**
 * Registers the page's tools while the page is shown: a page put in the back/forward cache
 * (pagehide) takes its tools back through the registration's AbortSignal, and offers them again
 * when it is shown from that cache (pageshow, persisted).
 */
export function registerPageTools(runners: Record<string, ToolRunner>): void {
  const context = modelContext();
  const data = document.getElementById(PAGE_TOOLS_ELEMENT_ID)?.textContent;
  if (context === undefined || !data) return;
  const tools = (JSON.parse(data) as PageTool[]).filter(
    ({ name }) => runners[name] !== undefined && !declaredByForm(name),
  );
  let shown = register(context, tools, runners);
  addEventListener('pagehide', () => shown.abort());
  addEventListener('pageshow', (event) => {
    if (event.persisted && shown.signal.aborted) shown = register(context, tools, runners);
  });
}

function register(context: ModelContext, tools: PageTool[], runners: Record<string, ToolRunner>): AbortController {
  const controller = new AbortController();
  for (const { api, ...tool } of tools) {
    const run = runners[tool.name]!;
    const execute = (input: unknown) =>
      run(input !== null && typeof input === 'object' ? { ...input } : {}, api, tool.inputSchema);
    // The page works the same without its tools: a refusal (a name taken, a schema the browser
    // rejects) is worth a warning, never an error that stops the page's own script. Removing the
    // tool later rejects the promise with the signal's reason, which is no refusal.
    const refused = (error: unknown) => {
      if (!controller.signal.aborted) console.warn(`WebMCP tool ${tool.name} not registered:`, error);
    };
    try {
      // The early preview's registerTool returned nothing; Promise.resolve takes both.
      Promise.resolve(context.registerTool({ ...tool, execute }, { signal: controller.signal })).catch(refused);
    } catch (error) {
      refused(error);
    }
  }
  return controller;
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

/**
 * A call refused before it reached the API, in the API's Error shape (there is no request, so no
 * requestId) and worded as apiResult words the API's refusals.
 */
export function invalidInput(message: string): ToolResult {
  const body = { code: 'invalid_parameter', message, hint: "See the tool's inputSchema." };
  return { content: [{ type: 'text', text: `${body.code}: ${message}` }], structuredContent: body, isError: true };
}

/** A call that got no answer (offline, connection cut): an error result the agent can retry. */
export function unreachable(retry: string): ToolResult {
  return { content: [{ type: 'text', text: `Could not reach the server. ${retry}` }], isError: true };
}
