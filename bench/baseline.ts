import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { SCENARIO_HEADER } from './scenarios.ts';

/**
 * The baseline: a bare node:http server answering each benchmarked scenario with the exact bytes
 * and headers the real server sent for it, doing nothing else. It is the ceiling the real
 * server is measured against.
 */
interface Fixture {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Fixtures by scenario name; each request names its scenario in SCENARIO_HEADER (URI-encoded). */
const fixtures = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Fixture>;
const prepared = new Map(
  Object.entries(fixtures).map(([name, fixture]) => [
    encodeURIComponent(name),
    { ...fixture, body: Buffer.from(fixture.body, 'base64') },
  ]),
);

const server = createServer((req, res) => {
  const fixture = prepared.get(String(req.headers[SCENARIO_HEADER]));
  if (fixture === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(fixture.status, fixture.headers);
  res.end(fixture.body);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
