import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../support/mcp.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { connectModern } from '../support/mcp-eras.ts';

/**
 * Tool results that name projects carry resource_link blocks (MCP 2025-11-25 ResourceLink, with
 * Annotations) to each project's resource, besides the text block and structuredContent; a client
 * can read every linked URI. Checked with a 2025-era client (SDK 1.x) and a 2026-07-28 one (v2),
 * whose requests take the plain tools/call path and the SDK's alike.
 */

interface Link {
  type: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: { audience?: string[]; priority?: number };
}

let server: InProcessApi;
let legacy: Client;
let modern: ModernClient;
let siteUrl: string;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
  siteUrl = server.config.siteUrl;
  legacy = await connectMcp(`${server.baseUrl}/mcp`);
  modern = await connectModern(`${server.baseUrl}/mcp`, { pin: '2026-07-28' });
});
afterAll(async () => {
  await legacy.close();
  await modern.close();
  await server.stop();
});

const clients = () =>
  ({ '2025-11-25': legacy, '2026-07-28': modern }) as Record<string, Pick<Client, 'callTool' | 'readResource'>>;

async function call(client: Pick<Client, 'callTool'>, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: ({ type: 'text'; text: string } | Link)[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  expect(result.isError ?? false, name).toBe(false);
  const [text, ...links] = result.content;
  expect(text?.type).toBe('text');
  expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return { body: result.structuredContent!, links: links as Link[] };
}

/** The link a project gets: its resource, named and titled as resources/list names it. */
function linkTo(project: { slug: string; title: string; description?: string }, audience: string[], priority: number) {
  return {
    type: 'resource_link',
    uri: `${siteUrl}/projects/${project.slug}.md`,
    name: project.slug,
    title: project.title,
    ...(project.description === undefined ? {} : { description: project.description }),
    mimeType: 'text/markdown',
    annotations: { audience, priority },
  };
}

type Project = { slug: string; title: string; description: string };

describe.each(['2025-11-25', '2026-07-28'])('resource_link blocks, %s', (era) => {
  it('get_project links its project for the user and the assistant', async () => {
    const { body, links } = await call(clients()[era]!, 'get_project', { slug: 'leakhound' });
    expect(links).toEqual([linkTo(body as Project, ['user', 'assistant'], 0.9)]);
  });

  it('list_projects links every project of the page for the assistant', async () => {
    const { body, links } = await call(clients()[era]!, 'list_projects', { limit: 3 });
    const projects = (body as { data: Project[] }).data;
    expect(projects.length).toBeGreaterThan(0);
    expect(links).toEqual(projects.map((project) => linkTo(project, ['assistant'], 0.5)));
  });

  it('search links its project results only, titled as found', async () => {
    const { body, links } = await call(clients()[era]!, 'search', { q: 'api', limit: 50 });
    const results = (body as { results: { type: string; title: string; url: string }[] }).results;
    const projects = results.filter((result) => result.type === 'project');
    expect(projects.length).toBeGreaterThan(0);
    expect(results.length).toBeGreaterThan(projects.length);
    expect(links).toEqual(
      projects.map((result) =>
        linkTo({ slug: result.url.slice(`${siteUrl}/projects/`.length), title: result.title }, ['assistant'], 0.5),
      ),
    );
  });

  it('compare_projects links each compared project, in order', async () => {
    const slugs = [
      'leakhound',
      ...((await call(clients()[era]!, 'list_projects', { limit: 2 })).body as { data: Project[] }).data
        .map((p) => p.slug)
        .filter((slug) => slug !== 'leakhound'),
    ].slice(0, 2);
    const { body, links } = await call(clients()[era]!, 'compare_projects', { slugs });
    expect(links).toEqual((body as { projects: Project[] }).projects.map((p) => linkTo(p, ['user', 'assistant'], 0.9)));
    expect(links.map((link) => link.name)).toEqual(slugs);
  });

  it('every linked URI reads as the project resource', async () => {
    const { links } = await call(clients()[era]!, 'list_projects', { limit: 50 });
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      const read = await clients()[era]!.readResource({ uri: link.uri });
      expect(read.contents).toEqual([expect.objectContaining({ uri: link.uri, mimeType: link.mimeType })]);
      expect((read.contents[0] as { text: string }).text).toContain(link.title!);
    }
  });

  it('an error result carries no links', async () => {
    const result = (await clients()[era]!.callTool({
      name: 'get_project',
      arguments: { slug: 'no-such-project' },
    })) as {
      content: { type: string }[];
      isError?: boolean;
    };
    expect(result.isError).toBe(true);
    expect(result.content.map((block) => block.type)).toEqual(['text']);
  });
});

describe('clients of a revision before resource_link', () => {
  /** A raw 2025-era get_project; `viaSdk` adds a `_meta` entry that sends it through the SDK's server. */
  async function blockTypes(version: string | undefined, viaSdk: boolean) {
    const answer = await server.request({
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_project',
          arguments: { slug: 'leakhound' },
          ...(viaSdk ? { _meta: { 'example.com/trace': 'x' } } : {}),
        },
      }),
    });
    const { result } = JSON.parse(answer.body.toString()) as { result: { content: { type: string }[] } };
    return result.content.map((block) => block.type);
  }

  it('get no links from 2025-03-26 down (and none when no version is named), on either path', async () => {
    for (const viaSdk of [false, true]) {
      expect(await blockTypes('2025-03-26', viaSdk)).toEqual(['text']);
      expect(await blockTypes('2024-11-05', viaSdk)).toEqual(['text']);
      expect(await blockTypes(undefined, viaSdk)).toEqual(['text']);
      expect(await blockTypes('2025-06-18', viaSdk)).toEqual(['text', 'resource_link']);
    }
  });
});
