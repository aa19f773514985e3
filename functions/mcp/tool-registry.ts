import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type McpServer,
  type ResourceLink,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { toJSONSchema, type ZodObject } from 'zod';
import { ApiError, errorBody, internalError } from '../http/api-error.ts';
import type { Paid } from '../http/request-context.ts';
import { asApiError } from '../http/known-errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth.ts';
import { listedNames } from '../http/query.ts';
import { logError } from '../log/log.ts';
import { MESSAGE_QUOTA, type ApiCaller, type ApiOutcome } from './api-caller.ts';
import { appToolMeta, type AppViewName } from './app-views.ts';
import { knowsResourceLinks } from './protocol-versions.ts';

/** Reads this service's own data: safe to call any number of times. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * Most arguments one tool call may carry. No tool takes more than three; the bound keeps a call
 * full of names from costing more than the one request it is charged.
 */
export const MAX_TOOL_ARGUMENTS = 32;

/** What every tool can use while it runs: the API as the caller reaches it, and the request id. */
export interface ToolContext {
  api: ApiCaller;
  requestId: string;
}

/** One MCP tool. Its arguments arrive as the client sent them; the operation behind it validates them. */
export interface ToolDefinition<Context extends ToolContext = ToolContext> {
  name: string;
  title: string;
  /** What the tool does and when to use it, written for an agent choosing between tools. */
  description: string;
  input: ZodObject;
  output: ZodObject;
  annotations: ToolAnnotations;
  /** The MCP Apps view a host may show the result in (app-views.ts); clients without the extension ignore it. */
  app?: AppViewName;
  /** The API's answer, or a local one in the same shape; an ApiError thrown becomes an error result. */
  run(args: Record<string, unknown>, context: Context): Promise<ApiOutcome>;
  /** Resource links a successful result carries after its text block (the resources it names), from its body. */
  links?(body: unknown, context: Context): ResourceLink[];
  /**
   * Its successful result depends on its arguments and the build alone (not on stored data, the
   * time or who calls), and it costs no more than the one request its message paid for: the
   * endpoint may give the same answer to the next public caller asking the same (answer-memo.ts).
   */
  reusable?: true;
}

/**
 * The JSON Schema (draft-07, as MCP SDK 1.x made them from zod 4) of what a schema reads
 * (`input`, before transforms and defaults) or what it gives (`output`).
 */
function jsonSchema(schema: ZodObject, io: 'input' | 'output') {
  return toJSONSchema(schema, { target: 'draft-7', io });
}

/**
 * The JSON Schema of a tool's arguments; the pages' WebMCP tools publish the same
 * (src/lib/webmcp-tools.ts).
 */
export function inputJsonSchema(input: ZodObject): Tool['inputSchema'] {
  return jsonSchema(input, 'input') as Tool['inputSchema'];
}

/** The tools/list entry of a tool: JSON Schemas made from its zod schemas. */
function describeTool(tool: ToolDefinition<never>): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input),
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    annotations: tool.annotations,
    ...(tool.app !== undefined && { _meta: appToolMeta(tool.app) }),
  };
}

const toolSets = new WeakMap<
  readonly ToolDefinition<never>[],
  { listed: Tool[]; byName: Map<string, ToolDefinition<never>> }
>();

/**
 * A tool array's tools/list answer and name index, made once: the arrays are constant, a
 * server is built for every MCP request, and converting the schemas costs milliseconds.
 */
function toolSet<Context extends ToolContext>(tools: readonly ToolDefinition<Context>[]) {
  const key = tools as readonly ToolDefinition<never>[];
  let set = toolSets.get(key);
  if (set === undefined) {
    set = { listed: key.map((tool) => describeTool(tool)), byName: new Map(key.map((tool) => [tool.name, tool])) };
    toolSets.set(key, set);
  }
  return set;
}

/** The tools/list entries of a tool set, in the set's order (deterministic, as 2026-07-28 asks). */
function listedTools<Context extends ToolContext>(tools: readonly ToolDefinition<Context>[]): Tool[] {
  return toolSet(tools).listed;
}

/** Whether the set's tool of that name is `reusable`. */
export function isReusableTool<Context extends ToolContext>(tools: readonly ToolDefinition<Context>[], name: string) {
  return toolSet(tools).byName.get(name)?.reusable === true;
}

/** What a client is told when it calls a tool the server does not have (an invalid-params error in every era). */
function unknownToolMessage(name: string): string {
  return `Unknown tool "${name}". Call tools/list for the tools this server has.`;
}

/** Answers one tools/call: the tool's result, or undefined when the set has no tool of that name (nothing ran). */
export async function answerToolCall<Context extends ToolContext>(
  tools: readonly ToolDefinition<Context>[],
  context: Context,
  name: string,
  args: Record<string, unknown> | undefined,
  /** Whether the client's revision has resource_link blocks (protocol-versions.ts knowsResourceLinks). */
  withLinks = true,
): Promise<CallToolResult | undefined> {
  const tool = toolSet(tools).byName.get(name) as ToolDefinition<Context> | undefined;
  if (tool === undefined) return undefined;
  try {
    const given = args ?? {};
    checkArgumentCount(given);
    checkArgumentDepth(given);
    const outcome = await tool.run(given, { ...context, api: paidByTheMessage(context.api) });
    return toolResult(outcome, outcome.status < 400 && withLinks ? tool.links?.(outcome.body, context) : undefined);
  } catch (error) {
    const expected = asApiError(error);
    if (expected !== undefined)
      return toolResult({ status: expected.status, body: errorBody(expected, context.requestId) });
    // A bug, as the API answers one: logged with its stack, and the caller gets the Error shape.
    logError(context.requestId, error);
    return toolResult({ status: 500, body: errorBody(internalError(), context.requestId) });
  }
}

/**
 * Serves tools/list and tools/call for a set of tools, in both protocol eras. The SDK's
 * registerTool would check the arguments itself and answer with its own wording; here the
 * operation behind each tool checks them (the API's validation, once), so a bad argument gets the
 * same error code and message over MCP as over HTTP, and a tool answers the same in every era.
 */
export function registerTools<Context extends ToolContext>(
  server: McpServer,
  tools: readonly ToolDefinition<Context>[],
  context: Context,
): void {
  const listed = listedTools(tools);
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler('tools/list', () => ({ tools: listed }));
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const version = ctx.http?.req?.headers.get('mcp-protocol-version');
    const result = await answerToolCall(
      tools,
      context,
      request.params.name,
      request.params.arguments,
      knowsResourceLinks(version),
    );
    if (result === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(request.params.name));
    return result;
  });
}

/** Refuses a call with more than MAX_TOOL_ARGUMENTS arguments, as the API refuses too many parameters. */
function checkArgumentCount(args: Record<string, unknown>): void {
  let count = 0;
  for (const name in args) if (Object.hasOwn(args, name) && ++count > MAX_TOOL_ARGUMENTS) break;
  if (count > MAX_TOOL_ARGUMENTS) {
    throw new ApiError(
      'too_many_parameters',
      `The call has more than ${MAX_TOOL_ARGUMENTS} arguments; at most ${MAX_TOOL_ARGUMENTS} are allowed.`,
      { hint: "Send only the arguments in the tool's inputSchema." },
    );
  }
}

/**
 * Refuses an argument nested deeper than MAX_JSON_DEPTH levels before a tool turns it into a query
 * string or a body (JSON.stringify recurses, and would run out of stack on one thousands deep).
 */
function checkArgumentDepth(args: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(args)) {
    if (!nestsDeeperThan(value)) continue;
    throw new ApiError(
      'invalid_parameter',
      `Argument "${name.slice(0, 64)}" nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      { hint: "See the tool's inputSchema." },
    );
  }
}

/**
 * The MCP endpoint charged one request for this tools/call message before any work; the first
 * operation the tool calls is that request (its context uses the payment up), so the tool costs
 * what its operation costs over HTTP.
 */
function paidByTheMessage(api: ApiCaller): ApiCaller {
  const paid: Paid = { [MESSAGE_QUOTA]: 1 };
  return (call) => api(call, paid);
}

/**
 * A success carries the API's JSON as structuredContent and, for clients that read only text,
 * the same JSON as text, then the tool's resource links. A failure is an error result whose text is the API's Error body
 * (code, message, hint, requestId), so an agent can act on the code.
 */
function toolResult({ status, body }: ApiOutcome, links: ResourceLink[] = []): CallToolResult {
  const text = JSON.stringify(body);
  if (status >= 400) return { isError: true, content: [{ type: 'text', text }] };
  return { content: [{ type: 'text', text }, ...links], structuredContent: body as Record<string, unknown> };
}

/** A UTF-16 surrogate without its partner: JSON can carry one (`"\\ud800"`), but no URL or UTF-8 text can. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A required string argument (a path parameter); a missing or non-string one, or one that is not
 * well-formed Unicode, is refused like a bad parameter.
 */
export function stringArgument(
  args: Record<string, unknown>,
  name: string,
  hint = "See the tool's inputSchema.",
): string {
  const value = args[name];
  if (typeof value !== 'string') {
    throw new ApiError('invalid_parameter', `Argument "${name}" is required and must be a string.`, { hint });
  }
  if (LONE_SURROGATE.test(value)) {
    throw new ApiError(
      'invalid_parameter',
      `Argument "${name}" is not well-formed Unicode (it holds a lone surrogate).`,
      { hint },
    );
  }
  return value;
}

/**
 * The arguments of a read tool as the query string of its operation. Strings go as they are,
 * numbers and booleans as their text; anything else as JSON, which the operation then refuses
 * with its own message.
 */
export function queryOf(args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    // Object keys are unique: append, where set would search the whole list for each name.
    query.append(
      name,
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value),
    );
  }
  return query;
}

/** Refuses arguments the tool does not take, as the API refuses unknown parameters. */
export function refuseArguments(args: Record<string, unknown>, allowed: readonly string[]): void {
  const known = new Set(allowed);
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ApiError(
      'unknown_parameter',
      `Not ${unknown.length > 1 ? 'arguments' : 'an argument'} of this tool: ${listedNames(unknown)}.`,
      { hint: allowed.length === 0 ? 'Send no arguments.' : `Send only: ${allowed.join(', ')}.` },
    );
  }
}
