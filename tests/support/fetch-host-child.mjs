// The minimal Web-standard host of tests/support/fetch-host.ts, run as its own process: node:http
// turned into a Request, the function's fetch handler, its Response written back. Every request
// (and every scheduled run) imports the function bundle anew, so each is answered by a fresh
// module instance, as on a host where any instance may be new: state kept in memory between
// requests is lost, as there, and shows up as a failing test.
import { createServer } from 'node:http';
import { requestBodyStream } from './request-body-stream.mjs';
import { pathToFileURL } from 'node:url';

const bundleUrl = pathToFileURL(process.env.FETCH_HOST_BUNDLE).href;
const withWaitUntil = process.env.FETCH_HOST_WAIT_UNTIL !== '0';
const loader = await import(`${bundleUrl}?instance=loader`);
// What a host's bundler embeds; read once, as it is the same for every instance.
const buildData = loader.buildDataOf(loader.loadBuild(process.env.FETCH_HOST_DIST));

let instances = 0;
/** Work handed to waitUntil that has not settled yet (the host keeps the instance for it). */
const pending = new Set();

async function freshInstance() {
  instances += 1;
  const module = await import(`${bundleUrl}?instance=${instances}`);
  return module.createFetchHandler(process.env, buildData);
}

/** Ends an instance once its answer and its waitUntil work are done, as a host drops it. */
function retire(fn, work) {
  const done = Promise.allSettled(work).then(() => fn.close());
  pending.add(done);
  void done.finally(() => pending.delete(done));
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function control(path, res) {
  if (path === '/__host/scheduled') {
    const fn = await freshInstance();
    try {
      json(res, 200, await fn.runScheduled());
    } finally {
      await fn.close();
    }
  } else {
    while (pending.size > 0) await Promise.all([...pending]);
    json(res, 200, { instances });
  }
}

const server = createServer(async (req, res) => {
  try {
    const path = (req.url ?? '/').split('?')[0];
    if (path.startsWith('/__host/')) return await control(path, res);
    const headers = new Headers();
    for (let index = 0; index < req.rawHeaders.length; index += 2)
      headers.append(req.rawHeaders[index], req.rawHeaders[index + 1]);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      // Streamed, as a host hands it on: the handler reads it with its own bound.
      body: hasBody ? requestBodyStream(req) : undefined,
      duplex: 'half',
    });
    const fn = await freshInstance();
    const work = [];
    const context = { clientIp: req.socket.remoteAddress };
    if (withWaitUntil) context.waitUntil = (promise) => work.push(promise);
    let response;
    try {
      response = await fn.fetch(request, context);
    } finally {
      retire(fn, work);
    }
    const headerList = [...response.headers].flat();
    // A body the handler left unread (a 413, a 409 before the body) ends the connection, lest the
    // rest be read as the next request; node:http hosts do the same (functions/hosts/node/request-listener.ts).
    if (hasBody && !req.complete) headerList.push('connection', 'close');
    res.writeHead(response.status, headerList);
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    // The host's own failure (the handler threw): not the service's answer, so not its shape.
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`host: ${error?.stack ?? error}`);
  }
});

server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ message: 'listening', port: server.address().port })}\n`),
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
