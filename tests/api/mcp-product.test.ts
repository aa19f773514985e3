import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, storedInbox, VALID } from '../support/contact.ts';
import { callTool, connectMcp, PRODUCT_TOOL_NAMES, structured, toolError } from '../support/mcp.ts';
import { validationErrorSchema } from '../support/schemas.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { ROOT } from '../support/server.ts';
import { waitFor } from '../support/webhook.ts';

const SLUGS = (
  JSON.parse(readFileSync(path.join(ROOT, 'dist/client/portfolio.json'), 'utf8')) as { projects: { slug: string }[] }
).projects.map((p) => p.slug);

let server: InProcessApi;
let client: Client;

beforeAll(async () => {
  server = await startApi({ CONTACT_RATE_LIMIT: '3/600', READ_RATE_LIMIT: '10000/60' });
  client = await connectMcp(`${server.baseUrl}/mcp`);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('/mcp: initialize and tools/list', () => {
  it('introduces itself with instructions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'portfolio', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/list_projects/);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  });

  it('lists every product tool with a title, schemas and all four annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(PRODUCT_TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.get_project?.annotations?.readOnlyHint).toBe(true);
    expect(byName.submit_contact?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.create_job?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.submit_contact?.inputSchema.required).toEqual(
      expect.arrayContaining(['name', 'email', 'message', 'idempotency_key']),
    );
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('/mcp: read tools answer like the HTTP API', () => {
  it('list_projects pages with the cursor and filters', async () => {
    const first = structured(await callTool(client, 'list_projects', { limit: 5 }));
    const http = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=5`)).json()) as unknown;
    expect(first).toEqual(http);
    const pagination = first.pagination as { nextCursor: string; hasMore: boolean };
    expect(pagination.hasMore).toBe(true);
    const second = structured(await callTool(client, 'list_projects', { limit: 5, cursor: pagination.nextCursor }));
    expect((second.data as { slug: string }[])[0]?.slug).toBe(SLUGS.length > 5 ? (await listAll())[5] : undefined);
    const filtered = structured(await callTool(client, 'list_projects', { domain: 'security' }));
    expect((filtered.data as { domain: string }[]).every((project) => project.domain === 'security')).toBe(true);
  });

  it('list_projects refuses bad arguments with the API error codes', async () => {
    expect(toolError(await callTool(client, 'list_projects', { limit: 500 })).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'list_projects', { sort: 'name' })).code).toBe('unknown_parameter');
    expect(toolError(await callTool(client, 'list_projects', { cursor: 'forged' })).code).toBe('invalid_cursor');
  });

  it('get_project returns the project or project_not_found', async () => {
    const slug = SLUGS[0] as string;
    const project = structured(await callTool(client, 'get_project', { slug }));
    expect(project).toEqual(await (await fetch(`${server.baseUrl}/api/v1/projects/${slug}`)).json());
    const missing = toolError(await callTool(client, 'get_project', { slug: 'no-such-project' }));
    expect(missing).toMatchObject({ code: 'project_not_found', message: expect.stringContaining('no-such-project') });
    expect(toolError(await callTool(client, 'get_project', {})).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'get_project', { slug: '../../contact' })).code).toBe('project_not_found');
    // A lone surrogate survives JSON but no URL: refused like any bad argument, not a protocol error.
    expect(toolError(await callTool(client, 'get_project', { slug: '\ud800' })).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'get_job', { job_id: 'job_\udc00' })).code).toBe('invalid_parameter');
  });

  it('search finds projects, docs and the MCP tools themselves', async () => {
    const results = structured(await callTool(client, 'search', { q: 'compare projects', type: 'mcp_tool' }));
    expect((results.results as { title: string; url: string }[])[0]).toMatchObject({
      title: 'Compare projects',
      url: expect.stringContaining('/developers#tool-compare_projects'),
    });
    expect(toolError(await callTool(client, 'search', {})).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'search', { q: 'x', type: 'everything' })).code).toBe('invalid_parameter');
  });

  it('compare_projects lays projects side by side through one batch read', async () => {
    const [a, b] = SLUGS as [string, string];
    const comparison = structured(await callTool(client, 'compare_projects', { slugs: [a, b] }));
    const projects = comparison.projects as { slug: string; stack: string[]; year: number }[];
    expect(projects.map((project) => project.slug)).toEqual([a, b]);
    const shared = projects[0]!.stack.filter((item) => projects[1]!.stack.includes(item));
    expect(comparison.sharedStack).toEqual(shared);
    expect(comparison.years).toEqual({
      from: Math.min(...projects.map((p) => p.year)),
      to: Math.max(...projects.map((p) => p.year)),
    });
    const failed = toolError(await callTool(client, 'compare_projects', { slugs: [a, 'no-such-project'] }));
    expect(failed.code).toBe('batch_failed');
    expect(toolError(await callTool(client, 'compare_projects', { slugs: [a] })).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'compare_projects', { slugs: [a, b], extra: true })).code).toBe(
      'unknown_parameter',
    );
  });
});

describe('/mcp: submit_contact shares the rules of POST /api/v1/contact', () => {
  it('stores once per idempotency key across MCP and HTTP, and counts one quota', async () => {
    const key = randomUUID();
    const sent = await callTool(client, 'submit_contact', { ...VALID, idempotency_key: key });
    expect(structured(sent)).toEqual({ success: true });
    const again = structured(await callTool(client, 'submit_contact', { ...VALID, idempotency_key: key }));
    expect(again).toEqual({ success: true });
    const replayed = await postContact(server.baseUrl, VALID, { key });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const reused = toolError(
      await callTool(client, 'submit_contact', {
        ...VALID,
        message: 'A different message, same key.',
        idempotency_key: key,
      }),
    );
    expect(reused.code).toBe('idempotency_key_reused');
    expect((await storedInbox(server.dataDir)).filter((entry) => entry.message === VALID.message)).toHaveLength(1);

    // Quota 3 per window: the MCP message above, one over HTTP, one more over MCP; the next is refused.
    expect((await postContact(server.baseUrl, { ...VALID, message: 'Second message, over HTTP.' })).status).toBe(200);
    expect(
      structured(
        await callTool(client, 'submit_contact', {
          ...VALID,
          message: 'Third message, over MCP.',
          idempotency_key: randomUUID(),
        }),
      ),
    ).toEqual({ success: true });
    const limited = toolError(
      await callTool(client, 'submit_contact', {
        ...VALID,
        message: 'Fourth message, refused.',
        idempotency_key: randomUUID(),
      }),
    );
    expect(limited.code).toBe('rate_limited');
    expect(
      (await postContact(server.baseUrl, { ...VALID, message: 'Fifth message, refused over HTTP too.' })).status,
    ).toBe(429);
    expect(await storedInbox(server.dataDir)).toHaveLength(3);
  });

  it('refuses a missing key and bad fields with the API codes, storing nothing', async () => {
    const before = (await storedInbox(server.dataDir)).length;
    expect(toolError(await callTool(client, 'submit_contact', VALID)).code).toBe('idempotency_key_missing');
    expect(toolError(await callTool(client, 'submit_contact', { ...VALID, idempotency_key: 'not-a-uuid' })).code).toBe(
      'idempotency_key_invalid',
    );
    const invalid = toolError(
      await callTool(client, 'submit_contact', {
        name: '',
        email: 'nope',
        message: 'short',
        idempotency_key: randomUUID(),
      }),
    );
    expect(invalid.code).toBe('validation_failed');
    expect(
      validationErrorSchema
        .parse(invalid)
        .errors.map((error) => error.field)
        .sort(),
    ).toEqual(['email', 'message', 'name']);
    expect((await storedInbox(server.dataDir)).length).toBe(before);
  });
});

describe('/mcp: jobs and sandbox', () => {
  it('create_job then get_job until it succeeds', async () => {
    const created = structured(await callTool(client, 'create_job', { task: 'stats' }));
    expect(created).toMatchObject({ jobId: expect.any(String), pollUrl: expect.stringContaining('/api/v1/jobs/') });
    let job: Record<string, unknown> = {};
    // Polled until it ends, however long a busy machine takes; the deadline only catches a hang.
    await waitFor(async () => {
      job = structured(await callTool(client, 'get_job', { job_id: created.jobId }));
      return job.status === 'succeeded' || job.status === 'failed';
    }, 'the job to end');
    expect(job).toMatchObject({ jobId: created.jobId, task: 'stats', status: 'succeeded', progress: 1 });
    expect(toolError(await callTool(client, 'get_job', { job_id: 'job_missing' })).code).toBe('job_not_found');
    expect(toolError(await callTool(client, 'create_job', { task: 'mine-bitcoin' })).code).toBe('unknown_task');
  });

  it('sandbox mode comes from the MCP request: query, header or nothing', async () => {
    expect(structured(await callTool(client, 'sandbox_ping'))).toEqual({ pong: true, sandbox: false });
    for (const [url, headers] of [
      [`${server.baseUrl}/mcp?sandbox=true`, {}],
      [`${server.baseUrl}/mcp`, { 'x-sandbox': 'true' }],
    ] as const) {
      const sandboxed = await connectMcp(url, headers);
      expect(structured(await callTool(sandboxed, 'sandbox_ping'))).toEqual({ pong: true, sandbox: true });
      await sandboxed.close();
    }
  });
});

describe('/mcp: project resources', () => {
  it('lists every project as Markdown and reads one like its .md page', async () => {
    const { resources: all } = await client.listResources();
    // The card (mcp://server-card.json) is checked against the served card in tests/system/mcp-cards-inspector.test.ts.
    expect(all.map((resource) => resource.uri)).toContain('mcp://server-card.json');
    // The MCP Apps views (ui://) are tests/api/mcp-apps.test.ts's.
    const resources = all.filter(
      (resource) => resource.uri !== 'mcp://server-card.json' && !resource.uri.startsWith('ui://'),
    );
    expect(resources.map((resource) => resource.name).sort()).toEqual([...SLUGS].sort());
    expect(resources.every((resource) => resource.mimeType === 'text/markdown')).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    const first = resources[0]!;
    const read = await client.readResource({ uri: first.uri });
    const page = await (await fetch(`${server.baseUrl}/projects/${first.name}.md`)).text();
    expect(read.contents[0]).toMatchObject({ uri: first.uri, mimeType: 'text/markdown', text: page });
    await expect(client.readResource({ uri: first.uri.replace(first.name, 'no-such-project') })).rejects.toThrow(
      /not found/i,
    );
  });
});

async function listAll(): Promise<string[]> {
  const body = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=100`)).json()) as {
    data: { slug: string }[];
  };
  return body.data.map((project) => project.slug);
}
