// The MCP messages whose answer is the same for every request of one shape (initialize, the
// lists, server/discover, ping, notifications/initialized), answered with bytes the SDK made
// once: the first request of a shape runs the real SDK server on a template (the same request
// with a placeholder id), and every later one gets those bytes with its own id put in. Nothing
// here writes an answer by hand, so whatever the servers register (tools, resources, prompts,
// icons, extensions) reaches the prepared answer as it reaches the SDK's.
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from '../http/types.ts';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { hasOnly, isPlainObject, sentAsTransportAccepts } from './message-shape.ts';

/** Methods of the 2025 era whose answer depends on nothing but the shape (no params, or initialize's). */
const LEGACY_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);
/** The same for 2026-07-28 requests, which carry only the `_meta` envelope (ping is gone in that revision). */
const MODERN_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);
const NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/initialized']);
/** Every method some request of which may get a prepared answer, in either era. */
export const PREPARED_METHODS: ReadonlySet<string> = new Set([...LEGACY_METHODS, ...MODERN_METHODS]);

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const INITIALIZE_KEYS: ReadonlySet<string> = new Set(['protocolVersion', 'capabilities', 'clientInfo']);
const MODERN_META_KEYS: ReadonlySet<string> = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
]);

/**
 * The id the template request carries; the SDK's answer names it exactly once, where a real
 * request's id is put in. A string no result of these servers holds.
 */
const TEMPLATE_ID = 'prepared-answer-template-id:9c1f6e2a';
const TEMPLATE_ID_JSON = `"id":${JSON.stringify(TEMPLATE_ID)}`;
/** Who the template request says it is: the answers of these methods do not depend on it (the SDK only records it). */
const TEMPLATE_CLIENT = { name: 'prepared-answer-template', version: '1.0.0' };
/** Longest client capabilities (as JSON) a shape may hold; a larger one is left to the SDK. */
const MAX_CAPABILITIES_CHARS = 2048;
/** Shapes kept per endpoint; a new one beyond this evicts the oldest. Clients send a handful. */
const MAX_SHAPES = 64;

export type RequestId = string | number;

/** A request the prepared answers may serve: everything its answer can depend on (`key`), and its id. */
export interface PreparedShape {
  key: string;
  /** The request's id; undefined for a notification. */
  id: RequestId | undefined;
  /** The request the SDK runs once to make the answer: this one with TEMPLATE_ID and TEMPLATE_CLIENT. */
  template: { path: string; body: Record<string, unknown>; headers: Record<string, string> };
}

/** Client capabilities as part of a key, when they are an object of bounded size. */
function capabilitiesKey(capabilities: unknown): string | undefined {
  if (!isPlainObject(capabilities)) return undefined;
  const json = JSON.stringify(capabilities);
  return json.length > MAX_CAPABILITIES_CHARS ? undefined : json;
}

/**
 * The request's shape when it is one of the messages above in the form the SDK answers alike for
 * every request (one message; no cursor; no `_meta` but the 2026-07-28 envelope; headers the SDK
 * accepts as they are); undefined otherwise, and the SDK answers it as before. The key holds
 * what the answer may depend on: the method, the era and version, initialize's requested
 * version and the client's capabilities. Left out are the id and the client's name, which the
 * SDK only records.
 */
export function preparedShape(request: ApiRequest, body: unknown): PreparedShape | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || !hasOnly(body, MESSAGE_KEYS)) return undefined;
  const { method, id, params } = body;
  if (typeof method !== 'string' || !(LEGACY_METHODS.has(method) || MODERN_METHODS.has(method))) return undefined;
  const notification = NOTIFICATIONS.has(method);
  if (notification ? 'id' in body : !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;

  if (!sentAsTransportAccepts(request)) return undefined;
  const version = headerValue(request, 'mcp-protocol-version');
  const methodHeader = headerValue(request, 'mcp-method');
  if (headerValue(request, 'mcp-name') !== undefined) return undefined;
  const era = classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: version,
    mcpMethodHeader: methodHeader,
    mcpNameHeader: undefined,
    body,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  const requestId = notification ? undefined : (id as RequestId);
  const template = (templateParams: Record<string, unknown> | undefined) => ({
    body: {
      jsonrpc: '2.0',
      ...(notification ? {} : { id: TEMPLATE_ID }),
      method,
      ...(templateParams === undefined ? {} : { params: templateParams }),
    },
    headers,
    path: request.path,
  });

  const meta = params?._meta;
  if (meta === undefined) {
    // 2025 era: no envelope, no 2026-07-28 headers, a version of that era or none yet.
    if (!LEGACY_METHODS.has(method) || era.kind !== 'legacy' || methodHeader !== undefined) return undefined;
    if (version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) return undefined;
    if (method === 'initialize') {
      if (params === undefined || !hasOnly(params, INITIALIZE_KEYS) || !isSpecType.InitializeRequest(body))
        return undefined;
      const { protocolVersion, capabilities } = params;
      const capabilityKey = capabilitiesKey(capabilities);
      if (typeof protocolVersion !== 'string' || protocolVersion.length > 64 || capabilityKey === undefined)
        return undefined;
      return {
        key: JSON.stringify(['legacy', request.path, method, version ?? null, protocolVersion, capabilityKey]),
        id: requestId,
        template: template({ protocolVersion, capabilities, clientInfo: TEMPLATE_CLIENT }),
      };
    }
    if (params !== undefined && Object.keys(params).length > 0) return undefined;
    return {
      key: JSON.stringify(['legacy', request.path, method, version ?? null, params === undefined ? 'none' : 'empty']),
      id: requestId,
      template: template(params),
    };
  }

  // 2026-07-28: the envelope and nothing else, matching the headers as the SDK checks them.
  if (!MODERN_METHODS.has(method) || era.kind !== 'modern' || era.messageKind !== 'request') return undefined;
  if (!hasOnly(params!, new Set(['_meta'])) || !isPlainObject(meta) || !hasOnly(meta, MODERN_META_KEYS))
    return undefined;
  const claimed = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof claimed !== 'string' || claimed !== version || !MODERN_PROTOCOL_VERSIONS.includes(claimed))
    return undefined;
  if (methodHeader !== method) return undefined;
  const capabilityKey = capabilitiesKey(meta[CLIENT_CAPABILITIES_META_KEY]);
  if (capabilityKey === undefined) return undefined;
  const named = meta[CLIENT_INFO_META_KEY] !== undefined;
  headers['mcp-method'] = method;
  return {
    key: JSON.stringify(['modern', request.path, method, claimed, capabilityKey, named]),
    id: requestId,
    template: template({ _meta: { ...meta, ...(named ? { [CLIENT_INFO_META_KEY]: TEMPLATE_CLIENT } : {}) } }),
  };
}

/**
 * An answer made once, given again to every request it fits: its status, the SDK's headers, and
 * its body cut where the id goes (answer-memo.ts keeps these too).
 */
export interface Prepared {
  status: number;
  headers: HeaderMap;
  /** The body before and after the template's id; null for an answer without a body (202). */
  around: [string, string] | null;
  /** The bytes of `around` in UTF-8, counted once, so that an answer's length is known without counting it again. */
  aroundBytes: number;
}

/** An answer to keep, its body cut at the id (null for none). */
export function preparedAnswer(status: number, headers: HeaderMap, around: [string, string] | null): Prepared {
  const aroundBytes = around === null ? 0 : Buffer.byteLength(around[0]) + Buffer.byteLength(around[1]);
  return { status, headers, around, aroundBytes };
}

/** A prepared answer to one request: its id put in (JSON-encoded), after the admission's headers. */
export function answerWith(prepared: Prepared, id: RequestId | undefined, headers: HeaderMap): ApiResponse {
  const { status, around } = prepared;
  const answer: ApiResponse = { status, headers: { ...headers, ...prepared.headers }, body: null };
  if (around !== null) {
    const idJson = typeof id === 'number' ? String(id) : JSON.stringify(id);
    answer.body = around[0] + idJson + around[1];
    answer.bodyBytes = prepared.aroundBytes + (typeof id === 'number' ? idJson.length : Buffer.byteLength(idJson));
  }
  return answer;
}

/**
 * The SDK's answer to a template as this endpoint serves any SDK answer (status, the SDK's own
 * headers and no-store, the body), before the admission's headers are added.
 */
export type TemplateAnswer = (template: PreparedShape['template']) => Promise<ApiResponse>;

/** The answer cut around the template's id, or undefined when it cannot be reused (an error, an id not found once). */
function prepare(answer: ApiResponse, notification: boolean): Prepared | undefined {
  if (answer.status < 200 || answer.status >= 300) return undefined;
  if (notification) return answer.body === null ? preparedAnswer(answer.status, answer.headers, null) : undefined;
  if (typeof answer.body !== 'string') return undefined;
  const at = answer.body.indexOf(TEMPLATE_ID_JSON);
  if (at < 0 || answer.body.indexOf(TEMPLATE_ID_JSON, at + 1) >= 0) return undefined;
  const idAt = at + '"id":'.length;
  return preparedAnswer(answer.status, answer.headers, [
    answer.body.slice(0, idAt),
    answer.body.slice(idAt + JSON.stringify(TEMPLATE_ID).length),
  ]);
}

/**
 * The prepared answers of one endpoint (one server), made lazily per shape by `answerTemplate`.
 * A shape whose template the SDK refuses or answers in a form that cannot be reused is
 * remembered as such, and its requests go to the SDK; a template that throws is tried again
 * with the next request.
 */
export function preparedAnswers(answerTemplate: TemplateAnswer) {
  const made = new Map<string, Promise<Prepared | undefined>>();

  function preparedFor(shape: PreparedShape): Promise<Prepared | undefined> {
    let prepared = made.get(shape.key);
    if (prepared === undefined) {
      if (made.size >= MAX_SHAPES) made.delete(made.keys().next().value!);
      prepared = answerTemplate(shape.template).then((answer) => prepare(answer, shape.id === undefined));
      prepared.catch(() => made.delete(shape.key));
      made.set(shape.key, prepared);
    }
    return prepared;
  }

  /** The prepared answer to requests of this shape, or undefined: the SDK answers them. */
  return async (shape: PreparedShape): Promise<Prepared | undefined> => {
    try {
      return await preparedFor(shape);
    } catch {
      return undefined;
    }
  };
}
