// One MCP endpoint for both protocol eras on the MCP SDK v2: 2026-07-28 requests (server/discover,
// `_meta` in every request, Mcp-Method/Mcp-Name headers) go to the SDK's HTTP handler
// (createMcpHandler), 2025-era ones (initialize, then the same methods) to a stateless Streamable
// HTTP transport answering in JSON; both are served by the same server definition.
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type CallToolResult,
  type Implementation,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { RequestContexts } from '../http/request-context.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from '../http/types.ts';
import type { McpCaller } from './api-caller.ts';
import type { HostVerdict } from './hosts.ts';
import { answerMemo, keptAnswer, memoKey } from './answer-memo.ts';
import { plainToolAnswer, plainToolCall } from './plain-tool-call.ts';
import { answerWith, preparedAnswers, preparedShape, type Prepared } from './prepared-answers.ts';
import { knowsResourceLinks } from './protocol-versions.ts';
import { withLegacyVersionRefusal } from './unsupported-version.ts';
import { andThen, type Eventually } from '../limits/rate-limiter.ts';
import { admit, callerOf, idOf, jsonRpcError, type AdmittedPost } from './mcp-admission.ts';
import { apiResponse, webRequest, withRequestId } from './sdk-exchange.ts';

const ALLOW = 'POST';

/**
 * Who asks for a prepared answer's template: no one outside. Those answers call no tool, so the
 * API behind this caller is never reached, and an answer cannot depend on a client's address.
 */
const TEMPLATE_CALLER: McpCaller = {
  clientIp: '127.0.0.1',
  requestId: 'prepared-answer',
  headers: {},
  sandbox: undefined,
};
const CORS_REQUEST_HEADERS =
  'Content-Type, Accept, Authorization, X-API-Key, X-Sandbox, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';

export interface EraEndpointOptions {
  /** The server for one request of either era, made for that request alone. */
  buildServer(caller: McpCaller): McpServer;
  /**
   * A tools/call as that server's handler answers it (undefined, and nothing run, for a tool it
   * does not have); `withLinks` as the handler decides it from the request's protocol version.
   */
  callTool(
    caller: McpCaller,
    name: string,
    args: Record<string, unknown> | undefined,
    withLinks: boolean,
  ): Promise<CallToolResult | undefined>;
  /** Whether a successful call of the tool may be given again to another public caller (tool-registry.ts `reusable`). */
  reusableTool(name: string): boolean;
  /** The server's identity, as its 2026-07-28 results carry it. */
  serverInfo: Implementation;
  contexts: Pick<RequestContexts, 'of'>;
  hostVerdict(host: string | undefined): HostVerdict;
  isAllowedOrigin(origin: string): boolean;
  siteUrl: string;
}

/**
 * The Host and Origin checks, the preflight and the per-message quota are this endpoint's (mcp-admission.ts),
 * as on the 1.x endpoint. A public caller's message answered before, but for its id, gets that
 * answer again (answer-memo.ts). Then the messages whose answer is the same for every request of their
 * shape (initialize, the lists, server/discover) get bytes the SDK made once for that shape
 * (prepared-answers.ts), with their id put in. A plain tools/call of either era is answered at once (plain-tool-call.ts):
 * built per request, the SDK's server and transport cost several times what the tool does. Then
 * the SDK's own classification (isLegacyRequest, the code
 * createMcpHandler routes with) picks the era:
 * - 2026-07-28: the SDK handler checks the protocol version and the headers against the body
 *   and builds the server through the factory. The factory learns who called from the web
 *   Request it is handed, made here for that call alone and mapped to its caller.
 * - 2025: a stateless transport with JSON answers, as the 1.x endpoint has (the SDK's own
 *   fallback answers over SSE).
 * GET and DELETE are 405 with Allow: POST: the 2025-11-25 transport allows it without sessions,
 * and the 2026-07-28 revision has neither (streamable-http, "Backward Compatibility").
 */
export function mcpEraEndpoint({
  buildServer,
  callTool,
  reusableTool,
  serverInfo,
  contexts,
  hostVerdict,
  isAllowedOrigin,
  siteUrl,
}: EraEndpointOptions) {
  const callers = new WeakMap<Request, McpCaller>();
  const kept = answerMemo();
  const admissionOptions = {
    contexts,
    hostVerdict,
    isAllowedOrigin,
    allow: ALLOW,
    corsRequestHeaders: CORS_REQUEST_HEADERS,
  };
  // A template is answered for a caller of its own: no answer prepared here calls a tool.
  const prepared = preparedAnswers((template) =>
    sdkAnswer(
      new Request(`${siteUrl}${template.path}`, { method: 'POST', headers: template.headers }),
      template.body,
      TEMPLATE_CALLER,
      {},
      template.headers['mcp-protocol-version'],
    ),
  );
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const caller = requestInfo === undefined ? undefined : callers.get(requestInfo);
      if (caller === undefined) throw new Error('An MCP request reached the server factory without its caller');
      return buildServer(caller);
    },
    { legacy: 'reject' },
  );

  // A kept answer goes out as soon as the body is read: no promise of this endpoint's in between.
  return (request: ApiRequest): Eventually<ApiResponse> =>
    andThen(admit(request, admissionOptions), (admission) => {
      if ('answer' in admission) return admission.answer;
      if ('other' in admission) {
        return jsonRpcError(405, 'Method Not Allowed: this stateless server answers POST only.', {
          ...admission.other.headers,
          allow: ALLOW,
        });
      }
      // A public caller asking what was answered before gets that answer with its own id.
      const { body, headers, publicCaller } = admission.post;
      const known = publicCaller ? keptAnswer(kept, request, body.text) : undefined;
      if (known !== undefined) return answerWith(known.answer, known.id, headers);
      return answerAfresh(request, admission.post);
    });

  /** The answer of a fast path (kept for the next public caller when it may be) or of the SDK. */
  async function answerAfresh(request: ApiRequest, post: AdmittedPost) {
    const { body, headers, publicCaller } = post;
    const parsedBody = body.parsed();
    // Kept for the next public caller, keyed only then: making the key proves the id's place with a parse.
    const keep = (answer: Prepared) => {
      const key = publicCaller ? memoKey(request, body.text, parsedBody) : undefined;
      if (key !== undefined) kept.set(key, answer);
    };
    const shape = preparedShape(request, parsedBody);
    const answer = shape === undefined ? undefined : await prepared(shape);
    if (answer !== undefined) {
      keep(answer);
      return answerWith(answer, shape!.id, headers);
    }
    // A tool may run from here on: who asked goes along to the API behind it.
    const caller = callerOf(request);
    const plain = plainToolCall(request, parsedBody);
    if (plain !== undefined) {
      const withLinks = knowsResourceLinks(headerValue(request, 'mcp-protocol-version'));
      const result = await callTool(caller, plain.name, plain.args, withLinks);
      if (result !== undefined) {
        const toolAnswer = plainToolAnswer(plain, result, serverInfo);
        if (result.isError !== true && reusableTool(plain.name)) keep(toolAnswer);
        return answerWith(toolAnswer, plain.id, headers);
      }
    }
    const web = webRequest(request, siteUrl, parsedBody === undefined ? body.bytes : null);
    return sdkAnswer(web, parsedBody, caller, headers, headerValue(request, 'mcp-protocol-version'));
  }

  /** The SDK's answer in either era, with the headers the admission gave. */
  async function sdkAnswer(
    web: Request,
    parsedBody: unknown,
    caller: McpCaller,
    headers: HeaderMap,
    version: string | undefined,
  ): Promise<ApiResponse> {
    if (parsedBody !== undefined && !(await isLegacyRequest(web, parsedBody))) {
      callers.set(web, caller);
      return apiResponse(await modern.fetch(web, { parsedBody }), headers);
    }
    const server = buildServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const id = idOf(parsedBody);
      const answer = await apiResponse(
        await transport.handleRequest(web, parsedBody === undefined ? {} : { parsedBody }),
        headers,
      );
      return withLegacyVersionRefusal(withRequestId(answer, id), version, id);
    } finally {
      await transport.close();
      await server.close();
    }
  }
}
