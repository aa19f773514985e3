import { spawn } from 'node:child_process';
import { freePort } from '../support/free-port.ts';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_TOOLS } from '../../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../../functions/mcp/product-tools.ts';
import { documentedResponse, validateResponse, type OpenApiDocument } from '../support/openapi.ts';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';

/**
 * Property-based contract fuzzing: for every operation of the published OpenAPI description,
 * fast-check throws random path segments, query strings, headers and bodies at the real server.
 * Whatever arrives, the answer is never a 5xx, its status, media type, body and headers are the
 * ones the description documents, and an error carries the X-Request-Id it was sent with. The
 * same cases then go through Stoplight's Prism proxy, which checks every answer against the
 * description with a validator that is not ours.
 * FUZZ_RUNS raises the number of cases per operation for a longer run (`npm run fuzz`).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

let server: InProcessService;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await startService({
    READ_RATE_LIMIT: '100000000/60',
    CONTACT_RATE_LIMIT: '100000000/60',
    KEYS_RATE_LIMIT: '100000000/60',
  });
  doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(() => server.stop());

/** What a stack trace in an answer would look like. */
const STACK_TRACE = /\n\s+at |node:internal|\.ts:\d+/;

/** Printable ASCII: what fetch lets through in a header value. */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 80,
});
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    'leakhound',
    '',
    ' ',
    '%',
    '%00',
    '\u0000',
    '🦀',
    'a'.repeat(500),
    '-1',
    '1e309',
    'null',
    'true',
    '[]',
    '{}',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
  ),
  fc.integer().map(String),
);
const jsonBody = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record({ name: anyText, email: anyText, message: anyText }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
  fc
    .record({ operations: fc.array(fc.record({ op: anyText, id: anyText }), { maxLength: 30 }) })
    .map((value) => JSON.stringify(value)),
  fc.record({ task: anyText, input: fc.jsonValue() }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  anyText,
);
const headerSets = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ),
    'idempotency-key': fc.oneof(fc.uuid(), headerText),
    'x-sandbox': fc.oneof(fc.constantFrom('true', 'false', '1', '0'), headerText),
    'x-api-version': fc.oneof(fc.constant('v1'), headerText),
    'x-api-key': headerText,
    authorization: fc.oneof(
      headerText.map((value) => `Bearer ${value}`),
      headerText.map((value) => `Basic ${value}`),
      headerText,
    ),
    'if-none-match': headerText,
    accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/problem+json'),
  },
  { requiredKeys: [] },
);

interface Case {
  segment: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: string | undefined;
}

function caseFor(queryNames: string[], takesBody: boolean): fc.Arbitrary<Case> {
  return fc.record({
    segment: anyText,
    query: fc.array(
      fc.tuple(fc.oneof(fc.constantFrom(...queryNames, 'sandbox', 'x', ''), fc.string({ maxLength: 10 })), anyText),
      { maxLength: 4 },
    ),
    headers: headerSets,
    body: takesBody ? fc.option(jsonBody, { nil: undefined }) : fc.constant(undefined),
  });
}

/** A path segment the URL parser keeps as it is: dot segments would be resolved away before sending. */
function segmentOf(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded === '.' || encoded === '..' || encoded === '' ? `x${encoded}` : encoded;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Runs RUNS random cases per operation of the description against `baseUrl`; `check` returns the
 * problems with one answer. Returns every problem found, with the request that caused it.
 */
/** The answer to one request, or why none came (a proxy that died, say): reported, never skipped. */
async function answerOf(url: string, init: RequestInit): Promise<Answer | { error: string }> {
  try {
    // A hang-catcher: a proxy that keeps a request open is named with that request, not a test timeout.
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (thrown) {
    return { error: thrown instanceof Error ? `${thrown.message} ${String(thrown.cause ?? '')}` : String(thrown) };
  }
}

/**
 * A body Prism itself cannot take, which the server answers with a 400 in the direct run and is
 * therefore not sent through Prism: a form body that does not percent-decode (a `%` without two
 * hex digits, or escapes that are not UTF-8: Prism dies of an unhandled URIError in its form
 * decoding, seen in clean-clone runs), and a body declared as JSON that does not parse (Prism 5.16
 * never answers it, checked by hand with curl).
 */
function breaksPrism(sample: Case): boolean {
  const type = Object.entries(sample.headers).find(([name]) => name === 'content-type')?.[1] ?? '';
  if (sample.body === undefined) return false;
  const parse = type.includes('x-www-form-urlencoded')
    ? () => decodeURIComponent(sample.body!)
    : type.includes('json')
      ? () => JSON.parse(sample.body!) as unknown
      : undefined;
  if (parse === undefined) return false;
  try {
    parse();
    return false;
  } catch {
    return true;
  }
}

async function fuzzEveryOperation(
  baseUrl: string,
  check: (operationId: string, answer: Answer, requestId: string) => string[],
  unsendable: (sample: Case) => boolean = () => false,
): Promise<{ failures: string[]; requests: number }> {
  const failures: string[] = [];
  let requests = 0;
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []) as { name: string; in: string }[];
      const queryNames = parameters.filter((p) => p.in === 'query').map((p) => p.name);
      await fc
        .assert(
          fc.asyncProperty(caseFor(queryNames.length > 0 ? queryNames : ['q'], method === 'post'), async (sample) => {
            if (unsendable(sample)) return true;
            const path = template.replace(/\{[^}]+\}/g, segmentOf(sample.segment));
            const search = new URLSearchParams(sample.query).toString();
            const requestId = `fuzz-case-${++requests}`;
            const where =
              `${method.toUpperCase()} ${path}${search ? `?${search}` : ''} ${JSON.stringify(sample.headers)} ${sample.body ?? ''}`.slice(
                0,
                400,
              );
            const answer = await answerOf(`${baseUrl}${path}${search ? `?${search}` : ''}`, {
              method: method.toUpperCase(),
              headers: { ...sample.headers, 'x-request-id': requestId },
              body: sample.body,
            });
            const errors =
              'error' in answer ? [`no answer: ${answer.error}`] : check(operation.operationId, answer, requestId);
            if (errors.length > 0) failures.push(`${where}\n  ${errors.join('\n  ')}`);
            return errors.length === 0;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch(() => undefined);
    }
  }
  return { failures, requests };
}

/** Our own reading of the description: status, media type, body schema, headers, request id. */
function documented(operationId: string, { status, headers, text }: Answer, requestId: string): string[] {
  if (status >= 500) return [`answered ${status}: ${text.slice(0, 200)}`];
  const contentType = headers.get('content-type');
  let body: unknown;
  try {
    body = text === '' ? undefined : contentType?.includes('json') ? (JSON.parse(text) as unknown) : text;
  } catch {
    body = text;
  }
  const errors = validateResponse(doc, operationId, { status, contentType, body, headers }, { closed: false });
  // Errors in the Error shape repeat the id; OAuth errors keep RFC 6749's shape.
  const apiError =
    typeof body === 'object' && body !== null && 'code' in body ? (body as { requestId?: string }) : undefined;
  if (headers.get('x-request-id') !== requestId || (apiError !== undefined && apiError.requestId !== requestId)) {
    errors.push('the answer does not carry the request id');
  }
  if (STACK_TRACE.test(text)) errors.push('the answer shows a stack trace');
  const described = new Set(
    Object.keys(documentedResponse(doc, operationId, status)?.headers ?? {}).map((name) => name.toLowerCase()),
  );
  for (const name of headers.keys()) {
    if (!GENERIC_HEADERS.test(name) && !described.has(name))
      errors.push(`header ${name} is not documented for ${status}`);
  }
  return errors;
}

/** HTTP's own headers, CORS and the security headers every response has: not part of an operation's contract. */
const GENERIC_HEADERS =
  /^(content-type|content-length|content-encoding|transfer-encoding|date|connection|keep-alive|vary|cache-control|pragma|allow|access-control-.*|content-security-policy|x-content-type-options|referrer-policy|x-frame-options|cross-origin-opener-policy|permissions-policy|strict-transport-security)$/;

describe('contract fuzzing (fast-check) against every operation', () => {
  it('never answers 5xx and answers only what the description documents', async () => {
    const { failures, requests } = await fuzzEveryOperation(server.baseUrl, documented);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(requests).toBeGreaterThan(RUNS * 10);
  }, 300_000);

  it('passes the Prism validation proxy: no response of the real server violates the description', async () => {
    const prism = await startPrism(server.baseUrl);
    try {
      const { failures, requests } = await fuzzEveryOperation(
        prism.baseUrl,
        (_operationId, { status, headers, text }) => {
          if (status >= 500) return [`answered ${status}: ${text.slice(0, 200)}`];
          const violations = JSON.parse(headers.get('sl-violations') ?? '[]') as {
            location: string[];
            severity: string;
            message: string;
          }[];
          // Request violations are the point of fuzzing; the server's answers must have none.
          return violations
            .filter((violation) => violation.location[0] === 'response')
            .map((violation) => `Prism: ${violation.message} at ${violation.location.join('.')}`);
        },
        breaksPrism,
      );
      expect(failures.slice(0, 5), prism.state()).toEqual([]);
      expect(requests).toBeGreaterThan(RUNS * 10);
    } finally {
      prism.stop();
    }
  }, 300_000);
});

describe('MCP fuzzing (fast-check)', () => {
  // Every tool of both servers, and one that does not exist.
  const TOOLS = [...PRODUCT_TOOLS, ...DOCS_TOOLS].map((tool) => tool.name).concat('no_such_tool');
  const message = fc.oneof(
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
      method: fc.constant('tools/call'),
      params: fc.record({
        name: fc.constantFrom(...TOOLS),
        arguments: fc.dictionary(
          fc.oneof(
            fc.constantFrom(
              'slug',
              'slugs',
              'q',
              'limit',
              'cursor',
              'path',
              'job_id',
              'task',
              'input',
              'idempotency_key',
              'name',
              'email',
              'message',
            ),
            fc.string({ maxLength: 8 }),
          ),
          fc.jsonValue(),
          { maxKeys: 4 },
        ),
      }),
    }),
    fc.record({
      jsonrpc: fc.constantFrom('2.0', '1.0'),
      id: fc.oneof(fc.integer(), fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom(
          'initialize',
          'tools/list',
          'resources/list',
          'resources/read',
          'resources/templates/list',
          'prompts/get',
          'prompts/list',
          'ping',
          'completion/complete',
          'logging/setLevel',
        ),
        fc.string({ maxLength: 20 }),
      ),
      params: fc.jsonValue(),
    }),
    fc.jsonValue(),
  );

  it.each(['/mcp', '/mcp/docs'])('%s never answers 5xx, and tool results are well formed', async (endpoint) => {
    const failures: string[] = [];
    await fc
      .assert(
        fc.asyncProperty(
          fc.oneof(
            message.map((value) => JSON.stringify(value)),
            fc.string({ maxLength: 60 }),
          ),
          async (body) => {
            const response = await fetch(`${server.baseUrl}${endpoint}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body,
            });
            const text = await response.text();
            const problems: string[] = [];
            if (response.status >= 500) problems.push(`answered ${response.status}: ${text.slice(0, 200)}`);
            if (STACK_TRACE.test(text)) problems.push('shows a stack trace');
            if (text !== '') {
              const answer = JSON.parse(text) as { result?: { isError?: boolean; content?: { text: string }[] } };
              // A failed tool call carries the API's Error body as its text.
              if (answer.result?.isError === true) {
                const error = JSON.parse(answer.result.content?.[0]?.text ?? '{}') as {
                  code?: unknown;
                  message?: unknown;
                };
                if (typeof error.code !== 'string' || typeof error.message !== 'string')
                  problems.push(`tool error without code and message: ${text.slice(0, 200)}`);
              }
            }
            if (problems.length > 0) failures.push(`${body.slice(0, 300)}\n  ${problems.join('\n  ')}`);
            return problems.length === 0;
          },
        ),
        { numRuns: RUNS * 4, endOnFailure: true },
      )
      .catch(() => undefined);
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

/** Prism (Stoplight) as a validating proxy in front of the server, on a free port. */
async function startPrism(upstream: string): Promise<{ baseUrl: string; stop: () => void; state: () => string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'),
      'proxy',
      path.join(ROOT, 'dist/client/openapi.json'),
      upstream,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Both streams are read to the end (Prism logs every request), and the last of them is kept for a failure's message.
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stderr.on('data', keep);
  child.stdout.on('data', keep);
  let exit = 'running';
  child.once('exit', (code, signal) => (exit = `exited with ${code ?? signal}`));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Prism did not start')), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`Prism exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => child.kill('SIGTERM'),
    state: () => `Prism ${exit}; its last output:\n${output}`,
  };
}
