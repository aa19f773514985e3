import { AGENT_GUIDE_PATH } from './doc-page.ts';

/** The API's base path: the anchor of its api-catalog entry and its RFC 9728 resource identifier's path. */
export const API_BASE_PATH = '/api/v1';

/**
 * RFC 9728 section 3.1: a resource's metadata lives at this well-known prefix followed by the
 * resource identifier's path, so the document for `<origin>/api/v1` is at `<prefix>/api/v1` and
 * the one at the bare prefix describes the origin itself.
 */
const PROTECTED_RESOURCE_PREFIX = '/.well-known/oauth-protected-resource';

/** Where the metadata of the resource at `resourcePath` (`''` for the origin) is published. */
export function protectedResourceMetadataPath(resourcePath: '' | typeof API_BASE_PATH): string {
  return `${PROTECTED_RESOURCE_PREFIX}${resourcePath}`;
}

/**
 * Agent Skills Discovery v0.2.0: each skill is a SKILL.md under the index's folder; its name
 * follows the Agent Skills name rules (1-64 of a-z, 0-9 and single inner hyphens). A skill is
 * made from a documentation page, here the guide for agents.
 */
export const AGENT_SKILLS = [{ name: 'portfolio-api', docPath: AGENT_GUIDE_PATH }] as const;
const AGENT_SKILLS_INDEX_PATH = '/.well-known/agent-skills/index.json';

export function agentSkillPath(name: string): string {
  return `/.well-known/agent-skills/${name}/SKILL.md`;
}

/**
 * The AI Catalog of this host (Agent-Card/ai-catalog, specification/ai-catalog.md, "Discovery" >
 * "Well-Known URI" and "Media Type"; functions/discovery/ai-catalog.ts makes it). JSON has no charset
 * parameter (RFC 8259 section 11), so none is added.
 */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/**
 * The same catalog where Agentic Resource Discovery v0.91 (2026-08-26) clients look first: ARD's
 * manifest is the AI Catalog's format, and its discovery (section 5.1, as Lighthouse's `ard-schema`
 * audit follows it) reads `/.well-known/ard.json` and the `ard` link relation before the
 * `ai-catalog` ones, which it keeps as legacy. Both paths serve the same bytes and type.
 */
export const ARD_PATH = '/.well-known/ard.json';

/**
 * The links a page's head carries to the catalog, by relation, as the Link header of the home
 * page and every API answer does (functions/http/router.ts DISCOVERY_LINKS): a static host that
 * sends no headers of ours still points agents at it.
 */
export const CATALOG_LINKS = [
  { rel: 'ard', href: ARD_PATH, type: AI_CATALOG_MEDIA_TYPE },
  { rel: 'ai-catalog', href: AI_CATALOG_PATH, type: AI_CATALOG_MEDIA_TYPE },
] as const;

/** The OpenAPI description in JSON and in YAML, which the AI Catalog and the api-catalog point at. */
export const OPENAPI_JSON_PATH = '/openapi.json';
export const OPENAPI_YAML_PATH = '/openapi.yaml';

/**
 * Public documents that agents and browser-based tools read from any origin, so each is served
 * with `Access-Control-Allow-Origin: *` (functions/hosts/node/start-server.ts). The MCP server cards
 * get the fuller set their draft asks for (functions/mcp/server-identity.ts SERVER_CARD_CORS_HEADERS).
 */
export const DISCOVERY_DOCUMENTS: readonly string[] = [
  '/.well-known/api-catalog',
  protectedResourceMetadataPath(''),
  protectedResourceMetadataPath(API_BASE_PATH),
  '/.well-known/oauth-authorization-server',
  AI_CATALOG_PATH,
  ARD_PATH,
  AGENT_SKILLS_INDEX_PATH,
  ...AGENT_SKILLS.map((skill) => agentSkillPath(skill.name)),
  '/.well-known/security.txt',
  '/llms.txt',
  '/llms-full.txt',
  OPENAPI_JSON_PATH,
  OPENAPI_YAML_PATH,
];

/**
 * Public documents of the site that are not discovery documents but are read by the same agents
 * and tools: the data documents, robots.txt (RFC 9309) and the sitemaps (/sitemap.xml, the
 * sitemap index and the files it names).
 */
const PUBLIC_DOCUMENTS: ReadonlySet<string> = new Set(['/portfolio.json', '/docs.json', '/robots.txt']);
const SITEMAP = /^\/sitemap[^/]*\.xml$/;

/**
 * Whether the document at `urlPath` is served to every origin (Access-Control-Allow-Origin: *):
 * a discovery document, a public document, a sitemap, or any Markdown document (the pages'
 * twins, agents.md, auth.md, the skills).
 */
export function isOpenToAll(urlPath: string): boolean {
  return (
    DISCOVERY_DOCUMENTS.includes(urlPath) ||
    PUBLIC_DOCUMENTS.has(urlPath) ||
    SITEMAP.test(urlPath) ||
    urlPath.endsWith('.md')
  );
}

/**
 * Another URL that answers exactly as a document does (same bytes, same headers): /AGENTS.md,
 * the file name coding agents look for (agents.md), is the guide for agents at /agents.md.
 */
export const DOCUMENT_ALIASES: Readonly<Record<string, string>> = { '/AGENTS.md': `${AGENT_GUIDE_PATH}.md` };

/**
 * Documents the build cannot write at their URL because that URL is also a folder of another
 * document: `/.well-known/oauth-protected-resource` (the origin's metadata) holds `api/v1` (the
 * API's). The build writes such a document as the file on the left; it is served only at its
 * URL, on the right.
 */
export const BUILT_ELSEWHERE: Readonly<Record<string, string>> = {
  [`${PROTECTED_RESOURCE_PREFIX}/index.json`]: PROTECTED_RESOURCE_PREFIX,
};
