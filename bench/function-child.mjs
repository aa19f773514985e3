// The function in a fresh Node.js process, for bench/functions.ts. `cold`: imports the bundle,
// answers one request, prints the times and the process's CPU time (process.cpuUsage: every
// thread's, user and system) for the module load and for that first request, and exits. `serve`: mounts the bundle's fetch handler in a
// minimal node:http server (one warm instance, as a host keeps it between requests) and prints its port.
import { createServer } from 'node:http';
import { requestBodyStream } from '../tests/support/request-body-stream.mjs';

const [mode, bundle] = process.argv.slice(2);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const cpuBeforeImport = cpuMs();
const startedImport = performance.now();
const { default: entry } = await import(bundle);
const cpuAfterImport = cpuMs();

if (mode === 'cold') {
  const response = await entry.fetch(new Request('http://127.0.0.1/api/v1/projects'));
  await response.arrayBuffer();
  const answered = performance.now();
  const cpuAfterAnswer = cpuMs();
  // performance.now() counts from the process's start.
  process.stdout.write(
    `${JSON.stringify({
      status: response.status,
      importToAnswerMs: answered - startedImport,
      processToAnswerMs: answered,
      loadCpuMs: cpuAfterImport - cpuBeforeImport,
      firstRequestCpuMs: cpuAfterAnswer - cpuAfterImport,
    })}\n`,
  );
  process.exit(0);
}

const server = createServer(async (req, res) => {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      Array.isArray(value) ? value.map((one) => [name, one]) : value === undefined ? [] : [[name, value]],
    ),
    body: hasBody ? requestBodyStream(req) : undefined,
    duplex: 'half',
  });
  const response = await entry.fetch(request);
  const headerList = [...response.headers].flat();
  // A body the handler left unread (a 413) ends the connection, lest the rest be read as the next request.
  if (hasBody && !req.complete) headerList.push('connection', 'close');
  res.writeHead(response.status, headerList);
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
