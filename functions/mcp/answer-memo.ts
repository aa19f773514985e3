// Answers already given, kept by everything they depend on but the request's id, so that a
// message asked again (every client's same initialize, tools/list, the same get_project) costs a
// Map lookup and the id put in: no JSON parse, no schema check, no SDK, no tool run. Only what a
// fast path answered is kept (prepared-answers.ts, and a plain tools/call of a tool whose result
// is the same for every public caller, tool-registry.ts `reusable`), and only for public callers
// (anonymous, live mode): whatever differs per caller still goes the whole way.
//
// A message is kept by its text as received with its id cut out, so that the next one is found
// before it is parsed (the parse cost a kept call a fifth of its time): the place of the id is
// proven once, when the message is kept, by parsing its text with `null` there instead; any
// text that equals a kept one but for a well-formed id at that place is the same message with
// another id. Clients send the same message in the same bytes (their serializer's), so a
// differently spaced or ordered copy is only a miss, answered afresh.
import { headerValue, type ApiRequest } from '../http/types.ts';
import { ByteBudgetCache } from '../limits/byte-budget-cache.ts';
import { hasOnly, isPlainObject } from './message-shape.ts';
import { PREPARED_METHODS, type Prepared, type RequestId } from './prepared-answers.ts';

/** The methods whose answers may be kept: the prepared ones and tools/call. */
const KEPT_METHODS: ReadonlySet<string> = new Set([...PREPARED_METHODS, 'tools/call']);
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/**
 * The request headers a kept answer, and the fast paths' verdict on the request, depend on (the
 * transport's checks, the era, the revision's result shape). Where a message goes (its path) is
 * the rest; who sent it is not, for public callers.
 */
const KEYED_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;
/** Longest message text kept, and longest path and keyed headers; a longer message is answered afresh each time. */
const MAX_TEXT_CHARS = 2560;
const MAX_HEAD_CHARS = 1024;
/** What a key costs at most (two bytes a character), with an entry's bookkeeping. */
const KEY_MAX_BYTES = 2 * (MAX_TEXT_CHARS + MAX_HEAD_CHARS) + 256;
/** Bytes of answers kept per endpoint, and the largest one kept (a long list page is answered afresh). */
const MEMO_BYTES = 4 * 1024 * 1024;
const ANSWER_MAX_BYTES = 256 * 1024;

/** Where an id may stand: a member named "id" written plainly, its value after optional spaces. */
const ID_MEMBER = '"id":';
/**
 * A value an id is taken from without parsing the message: an integer (safety checked after) or
 * a string without escapes or control characters; either ends where the value ends.
 */
const ID_VALUE = /-?(?:0|[1-9]\d{0,15})(?![\d.eE])|"[^"\\\u0000-\u001f]{0,256}"/y;
/** The places an id is looked for in one message: a client's own message has one. */
const MAX_ID_PLACES = 4;
/** Stands in a key where the id was: a character no JSON text holds unescaped. */
const ID_HOLE = '\u0000';
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const SPACE = 0x20;

/** One endpoint's kept answers, bounded by bytes; the least recently asked go first. */
export type AnswerMemo = ByteBudgetCache<string, Prepared>;

/** What an entry holds, counted as bytes: the answer's text (two bytes a character at most), and its key. */
function entryBytes(prepared: Prepared): number {
  const chars = prepared.around === null ? 0 : prepared.around[0].length + prepared.around[1].length;
  return 2 * chars + KEY_MAX_BYTES;
}

export function answerMemo(): AnswerMemo {
  return new ByteBudgetCache<string, Prepared>(MEMO_BYTES, ANSWER_MAX_BYTES, entryBytes);
}

/**
 * What a key holds besides the message: the path and each keyed header (absent and empty
 * differ), a line each; header values hold no line break (HTTP forbids them). Undefined when
 * too long to key by.
 */
function keyHead(request: ApiRequest): string | undefined {
  let head = request.path;
  for (const name of KEYED_HEADERS) {
    const value = headerValue(request, name);
    head += value === undefined ? '\n' : `\n:${value}`;
  }
  return head.length > MAX_HEAD_CHARS ? undefined : `${head}\n`;
}

/** A place the id may stand: where its value starts and ends in the text, and the id it gives. */
interface IdPlace {
  start: number;
  end: number;
  id: RequestId;
}

/**
 * The places of the first few members named "id" in the text whose value an id may be, each
 * given to `visit` (one object, changed for each) in the text's order until it returns true. A
 * plain loop, not a generator: this runs for every kept answer given.
 */
function visitIdPlaces(text: string, visit: (place: IdPlace) => boolean): void {
  const place: IdPlace = { start: 0, end: 0, id: 0 };
  let places = 0;
  for (let at = text.indexOf(ID_MEMBER); at !== -1 && places < MAX_ID_PLACES; at = text.indexOf(ID_MEMBER, at + 1)) {
    // After a backslash the quote is inside a string (a name ending in `\"id`), not a member's.
    if (at > 0 && text.charCodeAt(at - 1) === BACKSLASH) continue;
    places += 1;
    let start = at + ID_MEMBER.length;
    while (text.charCodeAt(start) === SPACE) start += 1;
    ID_VALUE.lastIndex = start;
    const value = ID_VALUE.exec(text)?.[0];
    if (value === undefined) continue;
    const id = value.charCodeAt(0) === QUOTE ? value.slice(1, -1) : Number(value);
    if (typeof id === 'number' && !Number.isSafeInteger(id)) continue;
    place.start = start;
    place.end = start + value.length;
    place.id = id;
    if (visit(place)) return;
  }
}

function keyWithHole(head: string, text: string, place: IdPlace): string {
  return head + text.slice(0, place.start) + ID_HOLE + text.slice(place.end);
}

/**
 * The answer kept for a message sent as `text`, with the message's own id; undefined when none
 * is. Reads the text, does not parse it.
 */
export function keptAnswer(
  kept: AnswerMemo,
  request: ApiRequest,
  text: string,
): { answer: Prepared; id: RequestId | undefined } | undefined {
  if (text.length > MAX_TEXT_CHARS || kept.size === 0) return undefined;
  const head = keyHead(request);
  if (head === undefined) return undefined;
  let found: { answer: Prepared; id: RequestId | undefined } | undefined;
  visitIdPlaces(text, (place) => {
    const answer = kept.get(keyWithHole(head, text, place));
    if (answer !== undefined) found = { answer, id: place.id };
    return found !== undefined;
  });
  if (found !== undefined) return found;
  // A notification is kept by its whole text: it has no id.
  const answer = kept.get(head + text);
  return answer === undefined ? undefined : { answer, id: undefined };
}

/**
 * The key to keep the answer to a message by (`text` as received, `parsed` from it): one
 * JSON-RPC message of a kept method, with a valid id or none, and a short text; undefined
 * otherwise, or when its id is not written where keptAnswer looks. The id's place is the one
 * where `null` instead makes the parsed message's id null.
 */
export function memoKey(request: ApiRequest, text: string, parsed: unknown): string | undefined {
  if (text.length > MAX_TEXT_CHARS) return undefined;
  if (!isPlainObject(parsed) || parsed.jsonrpc !== '2.0' || !hasOnly(parsed, MESSAGE_KEYS)) return undefined;
  const { id, method } = parsed;
  if (typeof method !== 'string' || !KEPT_METHODS.has(method)) return undefined;
  const head = keyHead(request);
  if (head === undefined) return undefined;
  // JSON holds no undefined: a message without an id is a notification, kept by its whole text.
  if (id === undefined) return head + text;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  let key: string | undefined;
  visitIdPlaces(text, (place) => {
    if (place.id === id && idStandsAt(text, place)) key = keyWithHole(head, text, place);
    return key !== undefined;
  });
  return key;
}

/** Whether the message's id is the value at `place`: with `null` there, the parsed message's id is null. */
function idStandsAt(text: string, place: IdPlace): boolean {
  try {
    const holed = JSON.parse(`${text.slice(0, place.start)}null${text.slice(place.end)}`) as { id?: unknown };
    return holed.id === null;
  } catch {
    return false;
  }
}
