// The one MCP message agents send most, a tools/call, answered without building an SDK server and
// transport for it when it is plain: one well-formed request, in either era, whose every part the
// SDK would accept as it is. Anything else (another method, a batch, a notification, an unknown
// tool, an extra parameter, a header the SDK would refuse) goes to the SDK, which answers it as
// before. The tool runs through the same registry either way (tool-registry.ts answerToolCall).
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type CallToolResult,
  type Implementation,
} from '@modelcontextprotocol/server';
import { headerValue, type ApiRequest } from '../http/types.ts';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { hasOnly, isPlainObject, sentAsTransportAccepts } from './message-shape.ts';
import { preparedAnswer, type Prepared } from './prepared-answers.ts';

/** A plain tools/call: who asked (its id), in which era, for which tool, with what. */
export interface PlainToolCall {
  id: string | number;
  modern: boolean;
  name: string;
  args: Record<string, unknown> | undefined;
}

/** A tool name that needs no encoding in Mcp-Name (streamable-http, "Standard Request Headers"). */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const MODERN_META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * The call, when the request is a plain tools/call the SDK would serve unchanged; undefined
 * otherwise. Checked as the SDK checks, with the SDK's schemas and its era classifier (JSON
 * content type, Accept naming both JSON and event streams, a supported version in
 * MCP-Protocol-Version; in 2026-07-28 also the `_meta` envelope matching that header, Mcp-Method
 * and Mcp-Name matching the body), and narrower: whatever it does not recognise is left to the
 * SDK (tests/unit/plain-tool-call.test.ts holds both paths to one verdict over generated messages).
 */
export function plainToolCall(request: ApiRequest, body: unknown): PlainToolCall | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || !hasOnly(body, MESSAGE_KEYS))
    return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || !isPlainObject(params) || !hasOnly(params, PARAMS_KEYS))
    return undefined;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string' || !PLAIN_NAME.test(name)) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;

  if (!sentAsTransportAccepts(request)) return undefined;
  const version = headerValue(request, 'mcp-protocol-version');
  const method = headerValue(request, 'mcp-method');
  const named = headerValue(request, 'mcp-name');

  // The SDK's own checks, with its own schemas: the message as a CallToolRequest, and the era as
  // its dual-era entry classifies it (the 2026-07-28 `_meta` envelope, clientInfo and
  // clientCapabilities included, and the headers against the body). What either refuses goes
  // to the SDK, which answers its refusal.
  if (!isSpecType.CallToolRequest(body)) return undefined;
  const era = classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: version,
    mcpMethodHeader: method,
    mcpNameHeader: named,
    body,
  });
  if (meta === undefined) {
    // 2025 era: no envelope, no 2026-07-28 headers, a version of that era.
    if (era.kind !== 'legacy' || method !== undefined || named !== undefined) return undefined;
    if (version === undefined || !LEGACY_PROTOCOL_VERSIONS.includes(version)) return undefined;
    return { id: id as string | number, modern: false, name, args };
  }
  if (era.kind !== 'modern' || era.messageKind !== 'request') return undefined;
  if (!isPlainObject(meta) || !hasOnly(meta, MODERN_META_KEYS)) return undefined;
  // The SDK compares the headers with the body after classifying the request.
  const claimed = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof claimed !== 'string' || claimed !== version || !MODERN_PROTOCOL_VERSIONS.includes(claimed))
    return undefined;
  if (method !== 'tools/call' || named !== name) return undefined;
  return { id: id as string | number, modern: true, name, args };
}

/** The headers the SDK's JSON answer to a call goes out with. */
const ANSWER_HEADERS = { 'cache-control': 'no-store', 'content-type': 'application/json' };

/**
 * The JSON-RPC answer the SDK gives to that call, cut where the id goes (answerWith puts it in):
 * the tool's result, and in 2026-07-28 its `resultType` and the server's identity in `_meta`
 * (spec: server/discover, "serverInfo").
 */
export function plainToolAnswer(call: PlainToolCall, result: CallToolResult, serverInfo: Implementation): Prepared {
  const sent = call.modern
    ? { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: serverInfo } }
    : result;
  return preparedAnswer(200, ANSWER_HEADERS, [`{"result":${JSON.stringify(sent)},"jsonrpc":"2.0","id":`, '}']);
}
