import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appViewFile } from '../../functions/hosts/static/build-output.ts';
import { APP_VIEW_NAMES, APP_VIEWS, appViewUri } from '../../functions/mcp/app-views.ts';
import { startApi, type InProcessApi } from '../support/api.ts';
import { APP_VIEW_MAX_BYTES } from '../support/app-view-budget.ts';
import { callTool, connectMcp } from '../support/mcp.ts';
import { connectModern } from '../support/mcp-eras.ts';
import { ROOT } from '../support/server.ts';

// The MCP Apps views (functions/mcp/app-views.ts) as a client sees them in each era; the views
// rendering in a real host is tests/browser/mcp-apps.test.ts.
let server: InProcessApi;
let legacy: LegacyClient;
let modern: ModernClient;

beforeAll(async () => {
  server = await startApi({ READ_RATE_LIMIT: '10000/60' });
  legacy = await connectMcp(`${server.baseUrl}/mcp`);
  modern = await connectModern(`${server.baseUrl}/mcp`, 'auto');
});
afterAll(async () => {
  await legacy.close();
  await modern.close();
  await server.stop();
});

/** Which tool shows its result in which view. */
const LINKED = {
  get_project: 'project-card',
  list_projects: 'project-gallery',
  compare_projects: 'project-comparison',
  submit_contact: 'contact-form',
} as const;

describe('/mcp: MCP Apps views', () => {
  it('names its view on each linked tool, in both the current and the legacy key, in both eras', async () => {
    for (const client of [legacy, modern]) {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const view = LINKED[tool.name as keyof typeof LINKED];
        if (view === undefined) expect(tool._meta, tool.name).toBeUndefined();
        else
          expect(tool._meta, tool.name).toEqual({
            ui: { resourceUri: appViewUri(view) },
            [RESOURCE_URI_META_KEY]: appViewUri(view),
          });
      }
    }
  });

  it('declares the extension with the view type it serves, the same in both eras', () => {
    for (const client of [legacy, modern])
      expect(client.getServerCapabilities()).toMatchObject({
        extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
      });
  });

  it('lists every view with its type, CSP and border preference, the same in both eras', async () => {
    const [old, now] = [(await legacy.listResources()).resources, (await modern.listResources()).resources];
    expect(now).toEqual(old);
    const views = now.filter((resource) => resource.uri.startsWith('ui://'));
    expect(views.map((view) => view.uri)).toEqual(APP_VIEW_NAMES.map(appViewUri));
    for (const name of APP_VIEW_NAMES)
      expect(views.find((view) => view.uri === appViewUri(name))).toEqual({
        uri: appViewUri(name),
        name,
        title: APP_VIEWS[name].title,
        description: APP_VIEWS[name].description,
        mimeType: RESOURCE_MIME_TYPE,
        _meta: {
          ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: APP_VIEWS[name].prefersBorder },
        },
      });
  });

  it('reads each view as the built, self-contained HTML, with its CSP on the content, in both eras', async () => {
    for (const name of APP_VIEW_NAMES) {
      const uri = appViewUri(name);
      const [old, now] = [await legacy.readResource({ uri }), await modern.readResource({ uri })];
      expect(now.contents).toEqual(old.contents);
      const [content] = now.contents;
      const html = readFileSync(appViewFile(path.join(ROOT, 'dist'), name), 'utf8');
      expect(content).toEqual({
        uri,
        mimeType: RESOURCE_MIME_TYPE,
        text: html,
        _meta: {
          ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: APP_VIEWS[name].prefersBorder },
        },
      });
      // Nothing to fetch: no external script, stylesheet, image or frame.
      expect(html).not.toMatch(/<(?:script|img|iframe)[^>]*\ssrc=|<link[^>]*rel="?stylesheet/);
      expect(html).toContain('<template id="project-card">');
    }
  });

  it('keeps each built view within its budget (a view rides in every function bundle)', () => {
    for (const name of APP_VIEW_NAMES) {
      const bytes = readFileSync(appViewFile(path.join(ROOT, 'dist'), name)).length;
      expect(bytes, name).toBeLessThan(APP_VIEW_MAX_BYTES);
    }
  });

  it('refuses a ui:// URI that is no view like any unknown resource: -32602 with the URI, in both eras', async () => {
    const uri = 'ui://portfolio/no-such-view.html';
    for (const client of [legacy, modern])
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
  });

  it('answers a linked tool call as before: the API JSON as text and structuredContent, no view in the result', async () => {
    const { data } = (await callTool(legacy, 'list_projects', { limit: 1 })).structuredContent as {
      data: { slug: string }[];
    };
    const slug = data[0]!.slug;
    const result = await callTool(legacy, 'get_project', { slug });
    const api = await (await fetch(`${server.baseUrl}/api/v1/projects/${slug}`)).json();
    // The result is what a client without the extension gets (the text, the structured copy and
    // the project's resource link, tests/api/mcp-resource-links.test.ts): nothing of the view.
    expect(result.structuredContent).toEqual(api);
    expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify(api) });
    expect(result.content.slice(1).map((block) => block.type)).toEqual(['resource_link']);
    expect(JSON.stringify(result)).not.toContain('ui://');
  });
});
