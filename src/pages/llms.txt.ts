import type { APIRoute } from 'astro';
import { DOCS_TOOLS } from '../../functions/mcp/docs-tools.ts';
import { PRODUCT_TOOLS } from '../../functions/mcp/product-tools.ts';
import { CONNECT_PATH } from '../../functions/discovery/install-links.ts';
import { AI_CATALOG_PATH } from '../../functions/site/discovery-documents.ts';
import { cardBesideServer, MCP_SERVERS, type McpServerId } from '../../functions/mcp/server-identity.ts';
import { OPERATIONS } from '../../functions/operations/operations.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';
import { buildCatalog, domainLabel, stackSlug } from '../lib/catalog.ts';
import { loadDocs } from '../lib/docs.ts';
import { loadSite } from '../../functions/config/site.ts';
import { absolute, textResponse } from '../lib/site-documents.ts';

/**
 * /llms.txt per llmstxt.org: an H1, a one-line summary, then H2 sections of links only. Pages are
 * linked by their Markdown twins (anchors included: the twins carry the same ids); documents for
 * programs rather than readers have a section of their own.
 */
export const GET: APIRoute = async () => {
  const docs = await loadDocs();
  const catalog = await buildCatalog();
  const site = loadSite();
  const link = (title: string, path: string, note: string) => `- [${title}](${absolute(path)}): ${note}`;
  const page = (title: string, path: string, note: string) => link(title, markdownTwinPath(path), note);
  const projects = (count: number) => `${count} ${count === 1 ? 'project' : 'projects'}`;
  const lines = [
    `# ${site.name}`,
    '',
    `> ${site.tagline} A portfolio of ${catalog.records.length} projects with a public read API, a contact endpoint and two MCP servers.`,
    '',
    '## Pages',
    page('Home', '/', `${site.name}: every project, by domain and by technology`),
    ...catalog
      .facets('domain')
      .map(({ value, count }) => page(`${domainLabel(value)} projects`, `/domains/${value}`, projects(count))),
    page('Search', '/search', 'search projects, docs, operations and tools; /search.md?q=terms answers in Markdown'),
    page('Contact', '/contact', 'how to send a message'),
    '',
    '## Docs',
    ...docs.filter((doc) => !doc.optional).map((doc) => page(doc.title, `/${doc.slug}`, doc.description)),
    '',
    '## API',
    ...Object.entries(OPERATIONS).map(([id, op]) =>
      page(`${id}: ${op.method} ${op.path}`, `/developers#${id}`, op.summary),
    ),
    '',
    '## MCP',
    page('Connect an agent', CONNECT_PATH, 'install links and commands that add both servers to an MCP client'),
    link(
      'AI Catalog',
      AI_CATALOG_PATH,
      'both MCP servers by their cards, the agent skills and the OpenAPI description',
    ),
    ...(Object.keys(MCP_SERVERS) as McpServerId[]).map((id) =>
      link(
        `${MCP_SERVERS[id].title} (MCP server card)`,
        cardBesideServer(id),
        `Streamable HTTP at ${absolute(MCP_SERVERS[id].path)}: ${MCP_SERVERS[id].description}`,
      ),
    ),
    ...[...PRODUCT_TOOLS, ...DOCS_TOOLS].map((tool) =>
      page(`${tool.name}: ${tool.title}`, `/developers#tool-${tool.name}`, firstSentence(tool.description)),
    ),
    '',
    '## Projects',
    ...catalog.records.map(({ project }) => page(project.title, `/projects/${project.slug}`, project.description)),
    '',
    '## Machine-readable documents',
    link('OpenAPI description (JSON)', '/openapi.json', 'the full contract, OpenAPI 3.0.3'),
    link('OpenAPI description (YAML)', '/openapi.yaml', 'the same document as YAML'),
    link('API catalog', '/.well-known/api-catalog', 'RFC 9727 linkset of the API and its documents'),
    link('Portfolio as JSON', '/portfolio.json', 'all projects with their Markdown'),
    link('Documentation as JSON', '/docs.json', 'every documentation page with its Markdown'),
    '',
    '## Optional',
    link('Full text', '/llms-full.txt', 'every document and project in one file'),
    ...docs.filter((doc) => doc.optional).map((doc) => page(doc.title, `/${doc.slug}`, doc.description)),
    // Every page the sitemap lists is named here too; the pages by technology are for browsing.
    ...catalog
      .facets('stack')
      .map(({ value, count }) => page(`${value} projects`, `/stack/${stackSlug(value)}`, projects(count))),
    '',
  ];
  return textResponse(lines.join('\n'), 'text/plain; charset=utf-8');
};

/** The first sentence of a description, for a one-line note. */
function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
}
