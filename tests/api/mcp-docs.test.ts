import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcp, structured, toolError } from '../support/mcp.ts';
import { startApi, type InProcessApi } from '../support/api.ts';

let server: InProcessApi;
let client: Client;
let docs: { path: string; title: string; markdownUrl: string }[];

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
  client = await connectMcp(`${server.baseUrl}/mcp/docs`);
  docs = structured(await callTool(client, 'list_docs')).docs as typeof docs;
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('/mcp/docs', () => {
  it('introduces itself and lists its three tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'portfolio-docs', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/get_doc/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['list_docs', 'get_doc', 'search_docs']);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true && tool.outputSchema !== undefined)).toBe(
      true,
    );
  });

  it('list_docs names every documentation page of the site', async () => {
    expect(docs.map((doc) => doc.path)).toEqual(
      expect.arrayContaining([
        '/developers',
        '/auth',
        '/pricing',
        '/sandbox',
        '/developers/cli',
        '/developers/sdk',
        '/developers/deprecation',
        '/agents',
      ]),
    );
    for (const doc of docs) expect((await fetch(`${server.baseUrl}${doc.path}`)).status, doc.path).toBe(200);
    expect(toolError(await callTool(client, 'list_docs', { verbose: true })).code).toBe('unknown_parameter');
  });

  it('get_doc returns the Markdown the .md twin serves, by any spelling of the path', async () => {
    const twin = await (await fetch(`${server.baseUrl}/developers/cli.md`)).text();
    for (const path of ['/developers/cli', 'developers/cli', '/developers/cli.md']) {
      expect(structured(await callTool(client, 'get_doc', { path })).markdown, path).toBe(twin);
    }
    expect(toolError(await callTool(client, 'get_doc', { path: '/nowhere' })).code).toBe('not_found');
    expect(toolError(await callTool(client, 'get_doc', {})).code).toBe('invalid_parameter');
    // The input schema asks for 1 to 200 characters: an empty or longer path is bad input, not a missing page.
    for (const path of ['', 'x'.repeat(201)]) {
      const refused = toolError(await callTool(client, 'get_doc', { path }));
      expect(refused, `${path.length} characters`).toMatchObject({
        code: 'invalid_parameter',
        message: expect.stringContaining('"path"'),
        hint: expect.any(String),
        requestId: expect.any(String),
      });
    }
  });

  it('search_docs searches documents only, through the API search', async () => {
    const found = structured(await callTool(client, 'search_docs', { q: 'idempotency', limit: 5 }));
    const results = found.results as { type: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((result) => result.type === 'doc')).toBe(true);
    expect(toolError(await callTool(client, 'search_docs', { q: '' })).code).toBe('invalid_parameter');
    expect(toolError(await callTool(client, 'search_docs', { q: 'x', type: 'project' })).code).toBe(
      'unknown_parameter',
    );
  });

  it('serves every page as a text/markdown resource, besides its server card', async () => {
    const { resources: all } = await client.listResources();
    // The card (mcp://server-card.json) is checked against the served card in tests/system/mcp-cards-inspector.test.ts.
    expect(all.map((resource) => resource.uri)).toContain('mcp://server-card.json');
    const resources = all.filter((resource) => resource.uri !== 'mcp://server-card.json');
    expect(resources.map((resource) => resource.uri).sort()).toEqual(docs.map((doc) => doc.markdownUrl).sort());
    const auth = resources.find((resource) => resource.uri.endsWith('/auth.md'))!;
    const read = await client.readResource({ uri: auth.uri });
    expect(read.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: await (await fetch(`${server.baseUrl}/auth.md`)).text(),
    });
  });

  it('has a prompt that walks an agent through an integration', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['integrate_with_api']);
    const prompt = await client.getPrompt({
      name: 'integrate_with_api',
      arguments: { goal: 'show my projects on a blog' },
    });
    const message = prompt.messages[0]!;
    expect(message.role).toBe('user');
    const text = message.content.type === 'text' ? message.content.text : '';
    expect(text).toContain('show my projects on a blog');
    expect(text).toContain('# Guide for agents');
    expect(text).toContain('/developers/cli.md');
  });
});
