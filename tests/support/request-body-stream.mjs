// A node:http request body as a web ReadableStream, for the minimal Web-standard hosts
// (tests/support/fetch-host-child.mjs, bench/function-child.mjs).
//
// Not Readable.toWeb(req): its stream pushes every 'data' chunk into the web stream's controller,
// and once the reader has cancelled it (the handler refused a body past its limit) a chunk still
// arriving throws "Controller is already closed" out of an event handler, which ends the process
// (nodejs/node#64529; a chunked POST over 64 KiB did it). Here a chunk is read only when the web
// stream asks for one (pull), so the body flows no faster than it is read, and nothing is pushed
// after a cancel.

/**
 * The body of `req`, pulled from its async iterator one chunk per read. Cancelling stops reading
 * without destroying the request: its socket must stay up for the answer (a 413), which the host
 * sends with `Connection: close` since the rest of the body is left unread.
 */
export function requestBodyStream(req) {
  const chunks = req[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    },
    cancel() {
      req.pause();
    },
  });
}
