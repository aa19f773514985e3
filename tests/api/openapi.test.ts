import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationId } from '../../functions/operations/operations.ts';
import { VALID } from '../support/contact.ts';
import { checkFetchResponse, type OpenApiDocument } from '../support/openapi.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { ROOT } from '../support/server.ts';

/** Roomy quotas for the main server; the tight one runs out on purpose, to show 429 and 503. */
const ROOMY = { READ_RATE_LIMIT: '1000/60', KEYS_RATE_LIMIT: '100/3600' };
const TIGHT = {
  READ_RATE_LIMIT: '7/60',
  CONTACT_RATE_LIMIT: '1/600',
  KEYS_RATE_LIMIT: '1/3600',
  JOB_CONCURRENCY: '1',
  JOB_QUEUE_LIMIT: '1',
};

let server: InProcessApi;
let tight: InProcessApi;
let doc: OpenApiDocument;
/** Statuses each operation answered with, checked against the document. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  [server, tight] = await Promise.all([startApi(ROOMY), startApi(TIGHT)]);
  // The document the server publishes as /openapi.json (tests/system/openapi-document.test.ts checks it is served as built).
  doc = JSON.parse(readFileSync(path.join(ROOT, 'dist/client/openapi.json'), 'utf8')) as OpenApiDocument;
});
afterAll(() => Promise.all([server?.stop(), tight?.stop()]));

/** A checked answer; its body already matched the documented schema. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

interface Call extends RequestInit {
  json?: unknown;
  base?: string;
}

/** Calls an operation and expects its answer to match the published description exactly. */
async function call(operationId: OperationId, target: string, init: Call = {}): Promise<Answer> {
  const { json, base = server.baseUrl, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const body = json === undefined ? rest.body : JSON.stringify(json);
  const response = await fetch(`${base}${target}`, {
    ...rest,
    headers,
    body,
    method: rest.method ?? OPERATIONS[operationId].method,
  });
  const checked = await checkFetchResponse(doc, operationId, response);
  expect(checked.errors, `${operationId} ${target} answered ${checked.status}`).toEqual([]);
  seen.set(operationId, (seen.get(operationId) ?? new Set()).add(checked.status));
  return { status: checked.status, body: (checked.body ?? {}) as Record<string, unknown>, headers: response.headers };
}

function firstSlug(list: Answer): string {
  return (list.body.data as { slug: string }[])[0]!.slug;
}

describe('live answers match the description', () => {
  it('projects: list, conditional reads, bad parameters, a problem document, the deprecated aliases', async () => {
    const list = await call('listProjects', '/api/v1/projects?limit=2');
    const pagination = list.body.pagination as { hasMore: boolean; nextCursor: string };
    expect(pagination.hasMore).toBe(true);
    await call('listProjects', `/api/v1/projects?limit=2&cursor=${encodeURIComponent(pagination.nextCursor)}`);
    expect(
      (
        await call('listProjects', '/api/v1/projects?limit=2', {
          headers: { 'if-none-match': list.headers.get('etag')! },
        })
      ).status,
    ).toBe(304);
    expect((await call('listProjects', '/api/v1/projects?limit=0')).body.code).toBe('invalid_parameter');
    expect((await call('listProjects', '/api/v1/projects?page=2')).body.code).toBe('unknown_parameter');
    expect((await call('listProjects', '/api/v1/projects?cursor=forged')).body.code).toBe('invalid_cursor');
    expect((await call('listProjects', '/api/v1/projects', { headers: { 'x-api-version': 'v9' } })).body.code).toBe(
      'unsupported_api_version',
    );

    const slug = firstSlug(list);
    const project = await call('getProject', `/api/v1/projects/${slug}`);
    expect(
      (
        await call('getProject', `/api/v1/projects/${slug}`, {
          headers: { 'if-none-match': project.headers.get('etag')! },
        })
      ).status,
    ).toBe(304);
    const missing = await call('getProject', '/api/v1/projects/no-such-project');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const deprecated = await call('listProjectsUnversioned', '/api/projects');
    expect(deprecated.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect((await call('getProjectUnversioned', `/api/projects/${slug}`)).body.slug).toBe(slug);
    expect((await call('getProjectUnversioned', '/api/projects/no-such-project')).status).toBe(404);
  });

  it('search, health and the API index', async () => {
    expect((await call('search', '/api/search?q=rust')).status).toBe(200);
    expect((await call('search', '/api/search')).status).toBe(400);
    expect((await call('getHealth', '/api/health')).body.status).toBe('ok');
    const index = await call('getApiIndex', '/api/v1');
    expect((index.body.links as Record<string, string>).openapi).toMatch(/\/openapi\.json$/);
    expect(
      (await call('getApiIndex', '/api/v1', { headers: { 'if-none-match': index.headers.get('etag')! } })).status,
    ).toBe(304);
    expect((await call('getApiIndex', '/api/v1?verbose=1')).body.code).toBe('unknown_parameter');
  });

  it('contact: stored, replayed, refused', async () => {
    const key = randomUUID();
    const headers = { 'idempotency-key': key };
    expect((await call('createContact', '/api/v1/contact?sandbox=true', { headers, json: VALID })).body).toEqual({
      success: true,
    });
    const replay = await call('createContact', '/api/v1/contact?sandbox=true', { headers, json: VALID });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(
      (
        await call('createContact', '/api/v1/contact?sandbox=true', {
          headers,
          json: { ...VALID, message: 'A different message.' },
        })
      ).status,
    ).toBe(422);
    const invalid = await call('createContact', '/api/v1/contact', {
      headers: { 'idempotency-key': randomUUID() },
      json: { name: '', email: 'x' },
    });
    expect(invalid.body.errors).toHaveLength(3);
    expect((await call('createContact', '/api/v1/contact', { json: VALID })).body.code).toBe('idempotency_key_missing');
    const text = { 'idempotency-key': randomUUID(), 'content-type': 'text/plain' };
    expect((await call('createContact', '/api/v1/contact', { headers: text, body: 'hello' })).status).toBe(415);
  });

  it('batch: results, a failed batch, an invalid one', async () => {
    const slug = firstSlug(await call('listProjects', '/api/v1/projects?limit=1'));
    const job = String((await call('createJob', '/api/v1/jobs', { json: { task: 'stats' } })).body.jobId);
    const ok = await call('batchOperations', '/api/v1/batch', {
      json: {
        operations: [
          { op: 'getProject', id: slug },
          { op: 'getJobStatus', id: job },
        ],
      },
    });
    expect(ok.body.results).toHaveLength(2);
    const failed = await call('batchOperations', '/api/v1/batch', {
      json: { operations: [{ op: 'getProject', id: 'no-such-project' }] },
    });
    expect(failed.body.code).toBe('batch_failed');
    expect(
      (await call('batchOperations', '/api/v1/batch', { json: { operations: [{ op: 'deleteProject', id: slug }] } }))
        .body.code,
    ).toBe('validation_failed');
  });

  it('jobs: accepted, polled to the end, unknown', async () => {
    for (const task of ['stats', 'digest', 'export']) {
      const created = await call('createJob', '/api/v1/jobs', { json: { task } });
      expect(created.status).toBe(202);
      expect(created.headers.get('location')).toBe(created.body.pollUrl);
      const poll = `/api/v1/jobs/${String(created.body.jobId)}`;
      let job = await call('getJobStatus', poll);
      while (job.body.status === 'pending' || job.body.status === 'running') {
        expect(job.headers.get('retry-after')).toMatch(/^\d+$/);
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = await call('getJobStatus', poll);
      }
      expect(job.body.status).toBe('succeeded');
    }
    expect((await call('getJobStatus', '/api/v1/jobs/job_unknown')).status).toBe(404);
    expect((await call('createJob', '/api/v1/jobs', { json: { task: 'nope' } })).body.code).toBe('unknown_task');
    expect(
      (await call('createJob', '/api/v1/jobs', { json: { task: 'digest', input: { domain: 7 } } })).body.code,
    ).toBe('validation_failed');
  });

  it('sandbox, keys and tokens', async () => {
    expect((await call('sandboxPing', '/api/v1/sandbox/ping', { headers: { 'x-sandbox': 'true' } })).body.sandbox).toBe(
      true,
    );
    expect((await call('sandboxPing', '/api/v1/sandbox/ping', { headers: { 'x-sandbox': 'maybe' } })).body.code).toBe(
      'invalid_header',
    );
    expect((await call('sandboxPing', '/api/v1/sandbox/ping?sandbox=yes')).body.code).toBe('invalid_parameter');

    const key = await call('createKey', '/api/v1/keys', { json: { label: 'openapi test' } });
    expect(key.status).toBe(201);
    const keyed = await call('sandboxPing', '/api/v1/sandbox/ping', { headers: { 'x-api-key': String(key.body.key) } });
    expect(keyed.headers.get('x-quota-tier')).toBe('test');
    expect(
      (await call('sandboxPing', '/api/v1/sandbox/ping', { headers: { 'x-api-key': 'pk_test_wrong' } })).headers.get(
        'x-api-key-status',
      ),
    ).toBe('invalid');
    expect((await call('createKey', '/api/v1/keys', { json: { color: 'blue' } })).body.code).toBe('validation_failed');

    const form = (fields: Record<string, string>) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const credentials = {
      grant_type: 'client_credentials',
      client_id: String(key.body.keyId),
      client_secret: String(key.body.key),
    };
    const token = await call('issueToken', '/oauth/token', form(credentials));
    expect(token.body.token_type).toBe('Bearer');
    expect(
      (
        await call('sandboxPing', '/api/v1/sandbox/ping', {
          headers: { authorization: `Bearer ${String(token.body.access_token)}` },
        })
      ).body.sandbox,
    ).toBe(true);
    expect((await call('issueToken', '/oauth/token', form({ ...credentials, client_secret: 'wrong' }))).status).toBe(
      401,
    );
    expect(
      (await call('issueToken', '/oauth/token', form({ ...credentials, grant_type: 'password' }))).body.error,
    ).toBe('unsupported_grant_type');
  });

  it('quotas and a full queue: 429 and 503 with Retry-After', async () => {
    const base = tight.baseUrl;
    const digest = { base, json: { task: 'digest' } };
    expect((await call('createJob', '/api/v1/jobs', digest)).status).toBe(202);
    expect((await call('createJob', '/api/v1/jobs', digest)).status).toBe(202);
    expect((await call('createJob', '/api/v1/jobs', digest)).body.code).toBe('queue_full');

    // The message and key quotas run out first; each request also counts one of the seven requests.
    const contact = () =>
      call('createContact', '/api/v1/contact', { base, headers: { 'idempotency-key': randomUUID() }, json: VALID });
    expect((await contact()).status).toBe(200);
    expect((await contact()).status).toBe(429);
    expect((await call('createKey', '/api/v1/keys', { base, json: {} })).status).toBe(201);
    expect((await call('createKey', '/api/v1/keys', { base, json: {} })).status).toBe(429);
    expect((await call('sandboxPing', '/api/v1/sandbox/ping', { base })).body.code).toBe('rate_limited');
    expect(
      (await call('batchOperations', '/api/v1/batch', { base, json: { operations: [{ op: 'getProject', id: 'x' }] } }))
        .status,
    ).toBe(429);
    expect((await call('getHealth', '/api/health', { base })).status).toBe(429);
  });

  it('covered a documented success of every operation', () => {
    for (const id of Object.keys(OPERATIONS)) {
      expect(
        [...(seen.get(id) ?? [])].some((status) => status >= 200 && status < 300),
        id,
      ).toBe(true);
    }
  });
});
