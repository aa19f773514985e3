// Answers already given, kept by everything they depend on but the request's id, so that a
// message asked again (every client's same initialize, tools/list, the same get_project) costs a
// Map lookup and the id put in: no schema check, no SDK, no tool run. Only what a fast path
// answered is kept (prepared-answers.ts, and a plain tools/call of a tool whose result is the
// same for every public caller, tool-registry.ts `reusable`), and only for public callers
// (anonymous, live mode): whatever differs per caller still goes the whole way.
import { headerValue, type ApiRequest } from '../http/types.ts';
import { ByteBudgetCache } from '../limits/byte-budget-cache.ts';
import { hasOnly, isPlainObject } from './message-shape.ts';
import { PREPARED_METHODS, type Prepared, type RequestId } from './prepared-answers.ts';

/** The methods whose answers may be kept: the prepared ones and tools/call. None holds a line break. */
const KEPT_METHODS: ReadonlySet<string> = new Set([...PREPARED_METHODS, 'tools/call']);
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/**
 * The request headers a kept answer, and the fast paths' verdict on the request, depend on (the
 * transport's checks, the era, the revision's result shape). Where a message goes (its path) is
 * the rest; who sent it is not, for public callers.
 */
const KEYED_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;
/** Longest params (as JSON) a key holds, and longest body kept; a longer message is answered afresh each time. */
const MAX_PARAMS_CHARS = 2048;
const MAX_BODY_BYTES = MAX_PARAMS_CHARS + 512;
/** What a key costs at most beyond its params, and what an entry's bookkeeping costs. */
const KEY_OVERHEAD_BYTES = 1024;
/** Bytes of answers kept per endpoint, and the largest one kept (a long list page is answered afresh). */
const MEMO_BYTES = 4 * 1024 * 1024;
const ANSWER_MAX_BYTES = 256 * 1024;

/** Where a request's answer is kept, and the id to put in it. */
export interface MemoKey {
  key: string;
  id: RequestId | undefined;
}

/**
 * The key of a request whose answer may be kept: one JSON-RPC message of a kept method, with a
 * valid id or none, and small params; undefined otherwise. The key joins the path, the method,
 * whether it is a notification, each keyed header (absent and empty differ), and the params as
 * JSON, last. Header values hold no line break (HTTP forbids them) and the methods are a fixed
 * set, so two requests share a key only when they agree on all of it.
 */
export function memoKey(request: ApiRequest, body: unknown, bodyBytes: number): MemoKey | undefined {
  // A long body is never kept, and never made JSON again here (one nested thousands deep would
  // overflow the stack): a body this short cannot nest deep enough for that.
  if (bodyBytes > MAX_BODY_BYTES) return undefined;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || !hasOnly(body, MESSAGE_KEYS)) return undefined;
  const { id, method, params } = body;
  if (typeof method !== 'string' || !KEPT_METHODS.has(method)) return undefined;
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const paramsJson = params === undefined ? '' : JSON.stringify(params);
  if (paramsJson.length > MAX_PARAMS_CHARS) return undefined;
  let key = `${request.path}\n${method}\n${id === undefined ? 'notification' : 'request'}`;
  for (const name of KEYED_HEADERS) {
    const value = headerValue(request, name);
    key += value === undefined ? '\n' : `\n:${value}`;
  }
  return { key: `${key}\n${paramsJson}`, id: id as RequestId | undefined };
}

/** What an entry holds, counted as bytes: the answer's text (two bytes a character at most), and its key. */
function entryBytes(prepared: Prepared): number {
  const chars = prepared.around === null ? 0 : prepared.around[0].length + prepared.around[1].length;
  return 2 * chars + MAX_PARAMS_CHARS + KEY_OVERHEAD_BYTES;
}

/** One endpoint's kept answers, bounded by bytes; the least recently asked go first. */
export function answerMemo(): ByteBudgetCache<string, Prepared> {
  return new ByteBudgetCache<string, Prepared>(MEMO_BYTES, ANSWER_MAX_BYTES, entryBytes);
}
