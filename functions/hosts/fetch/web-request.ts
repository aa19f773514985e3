import { payloadTooLarge } from '../../http/api-error.ts';
import { RequestAborted } from '../../http/request-aborted.ts';
import type { ApiRequest } from '../../http/types.ts';

/** The handler's view of a Web-standard Request (a class, so no closure is made per request). */
class WebApiRequest implements ApiRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    private readonly request: Request,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly clientIp: string,
    readonly requestId: string,
  ) {
    this.method = request.method;
    // Headers gives lower-case names, as node:http does; repeated ones arrive joined by ", ".
    this.headers = Object.fromEntries(request.headers);
  }

  readBody(maxBytes: number): Promise<Buffer> {
    return readBoundedBody(this.request, maxBytes);
  }
}

export function toApiRequest(request: Request, url: URL, clientIp: string, requestId: string): ApiRequest {
  return new WebApiRequest(request, url.pathname, url.searchParams, clientIp, requestId);
}

/**
 * Reads the body up to `maxBytes`, as the node host does (functions/hosts/node/node-request.ts): a
 * declared Content-Length over the limit is refused before a byte is read, an undeclared body as
 * soon as it passes the limit (the rest is cancelled, not read). A body that breaks off (the
 * client went away) rejects with RequestAborted.
 */
async function readBoundedBody(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? undefined);
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
  if (request.body === null) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new RequestAborted('client');
    }
    if (chunk.done) return Buffer.concat(chunks);
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
}
