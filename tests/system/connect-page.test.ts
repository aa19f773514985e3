import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_PATH, mcpInstalls } from '../../functions/discovery/install-links.ts';
import { MCP_SERVERS } from '../../functions/mcp/server-identity.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';
import { clientSections } from '../../src/lib/connect-page.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { sitemapPaths, SITE } from '../support/sitemap.ts';

/**
 * /connect as the build wrote it and the production service serves it: every link and snippet is
 * the one functions/discovery/install-links.ts makes for the URLs the site was built with, and
 * the page is reachable from every document that should lead to it.
 */

/** The build's own addresses (the server runs with the SITE_URL it was built with). */
const installs = mcpInstalls({ siteUrl: SITE, apiOrigin: null });
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
});
afterAll(() => server?.stop());

async function text(path: string, accept = '*/*'): Promise<string> {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { accept } });
  expect(response.status, path).toBe(200);
  return response.text();
}

function decode(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|#39);/g, (_, name: string) => {
    return { amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'" }[name]!;
  });
}

/** The hrefs of a page's anchors, decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((match) => decode(match[1]!));
}

/** The text of each `<code>` inside a `<pre>`, decoded. */
function snippets(html: string): string[] {
  return [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) => decode(match[1]!));
}

describe('the Connect page', () => {
  it('shows exactly the install links and snippets the module makes, for both servers', async () => {
    const html = await text(CONNECT_PATH, 'text/html');
    const expectedLinks = installs.flatMap((install) =>
      clientSections(install).flatMap((client) =>
        client.blocks.flatMap((block) => (block.kind === 'links' ? block.links.map((link) => link.href) : [])),
      ),
    );
    expect(
      hrefs(html).filter((href) => /^(cursor|vscode|vscode-insiders):|^https:\/\/cursor\.com\//.test(href)),
    ).toEqual(expectedLinks);
    expect(expectedLinks).toHaveLength(8);
    const expectedSnippets = installs.flatMap((install) => [
      install.url,
      ...clientSections(install).flatMap((client) =>
        client.blocks.flatMap((block) => (block.kind === 'snippet' ? [block.text] : [])),
      ),
    ]);
    expect(snippets(html)).toEqual(expectedSnippets);
    for (const install of installs) {
      expect(html).toContain(`id="${install.name}"`);
      expect(snippets(html)).toContain(
        `claude mcp add --transport http ${install.name} ${SITE}${MCP_SERVERS[install.id].path}`,
      );
      for (const step of [...install.claudeSteps, ...install.chatgptSteps])
        expect(decode(html.replace(/<\/?code>/g, '`'))).toContain(step);
    }
  });

  it('has a Markdown twin with the same links and snippets', async () => {
    const markdown = await text(markdownTwinPath(CONNECT_PATH));
    for (const install of installs) {
      expect(markdown).toContain(`](${install.cursor.deeplink})`);
      expect(markdown).toContain(`](${install.vscode.link})`);
      expect(markdown).toContain(`\n${install.claudeCode}\n`);
      expect(markdown).toContain(`\n${install.codex.toml}`);
      expect(markdown).toContain(install.windsurf.trimEnd());
      expect(markdown).toContain(`<a id="${install.name}"></a>`);
    }
    expect(await text(CONNECT_PATH, 'text/markdown')).toBe(markdown);
  });

  it('is in the sitemap and linked from the home page, its twin, llms.txt, the AI Catalog and /developers', async () => {
    expect(await sitemapPaths(server.baseUrl)).toContain(CONNECT_PATH);
    expect(hrefs(await text('/', 'text/html'))).toContain(CONNECT_PATH);
    expect(await text('/index.md')).toContain(`](${SITE}/connect.md)`);
    expect(await text('/llms.txt')).toContain(`](${SITE}/connect.md)`);
    const catalog = JSON.parse(await text('/.well-known/ai-catalog.json')) as {
      entries: { identifier: string; metadata?: { installPage?: string } }[];
    };
    expect(catalog.entries.flatMap((entry) => entry.metadata?.installPage ?? [])).toEqual(
      installs.map((install) => `${SITE}${CONNECT_PATH}#${install.name}`),
    );
    expect(hrefs(await text('/developers', 'text/html'))).toContain(CONNECT_PATH);
    expect(await text('/developers.md')).toContain(`](${SITE}/connect.md)`);
  });
});
