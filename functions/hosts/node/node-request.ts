import type { IncomingMessage } from 'node:http';
import { payloadTooLarge } from '../../http/api-error.ts';
import { RequestAborted } from '../../http/request-aborted.ts';
import type { ApiRequest } from '../../http/types.ts';

/** Splits a request target into path and query; absolute-form targets (RFC 9112 section 3.2.2) too. */
export function splitTarget(target: string): { path: string; search: string } {
  let value = target;
  if (!value.startsWith('/')) {
    try {
      const url = new URL(value);
      value = url.pathname + url.search;
    } catch {
      value = '/';
    }
  }
  const question = value.indexOf('?');
  return question === -1
    ? { path: value, search: '' }
    : { path: value.slice(0, question), search: value.slice(question + 1) };
}

/**
 * The query of every request that has none (most reads): one shared instance instead of one per
 * request, so it refuses to be given parameters.
 */
class NoQuery extends URLSearchParams {
  override append(): never {
    throw new TypeError('The query of a request without one is shared and cannot be changed.');
  }
  override set(): never {
    return this.append();
  }
  override delete(): never {
    return this.append();
  }
}
const NO_QUERY = new NoQuery();

/** The handler's view of a node request (a class, so no closure is made per request). */
class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly path: string,
    readonly search: string,
    readonly clientIp: string,
    readonly requestId: string,
  ) {
    this.method = req.method ?? 'GET';
    this.headers = req.headers;
  }

  /** Parsed when first asked, and only when there is a query string. */
  get query(): URLSearchParams {
    return (this.parsedQuery ??= this.search === '' ? NO_QUERY : new URLSearchParams(this.search));
  }

  readBody(maxBytes: number): Promise<Buffer> {
    return readBody(this.req, maxBytes);
  }
}

export function toApiRequest(
  req: IncomingMessage,
  path: string,
  search: string,
  clientIp: string,
  requestId: string,
): ApiRequest {
  return new NodeApiRequest(req, path, search, clientIp, requestId);
}

/**
 * Reads the body up to `maxBytes`. A declared Content-Length over the limit is refused before
 * a byte is read; an undeclared body is refused as soon as it passes the limit, and the rest is
 * left unread (the server then closes the connection). A body that stops arriving rejects with
 * RequestAborted as soon as the connection ends: the client closed it, or the server's request
 * timeout did (node then answers 408 itself).
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => payloadTooLarge(maxBytes);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge());
  const aborted = () => new RequestAborted(timedOut(req) ? 'timeout' : 'client');
  // Ended before the handler asked for the body: its 'error' and 'close' have already fired.
  if (req.destroyed && !req.complete) return Promise.reject(aborted());
  // Parsed whole already (a small body comes with its headers, and a handler asks for it a
  // microtask later): taken from the stream's buffer at once, without the flowing mode's ticks
  // and events. An empty body reads as null.
  if (req.complete) {
    const body = (req.read() as Buffer | null) ?? EMPTY_BODY;
    return body.length > maxBytes ? Promise.reject(tooLarge()) : Promise.resolve(body);
  }
  // Plain listeners, not once(): a request ends once and is then dropped, and once() would wrap
  // each listener, per request. A body that comes as one chunk (most do) is taken as it is.
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.pause();
        reject(tooLarge());
        return;
      }
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(more === undefined ? (first ?? EMPTY_BODY) : Buffer.concat(more)));
    // An ended connection surfaces as 'error' (ECONNRESET "aborted") or only as 'close'; a settled
    // promise ignores whichever comes second.
    const ended = () => {
      if (!req.complete) reject(aborted());
    };
    req.on('error', ended);
    req.on('close', ended);
  });
}

const EMPTY_BODY = Buffer.alloc(0);

/** node destroys the socket with ERR_HTTP_REQUEST_TIMEOUT when requestTimeout or headersTimeout passes. */
function timedOut(req: IncomingMessage): boolean {
  return (req.socket.errored as NodeJS.ErrnoException | null)?.code === 'ERR_HTTP_REQUEST_TIMEOUT';
}
