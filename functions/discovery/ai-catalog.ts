import { connectPageUrl } from './install-links.ts';
import { cardBesideServer, MCP_SERVERS, SERVER_CARD_MEDIA_TYPE, type McpServerId } from '../mcp/server-identity.ts';
import {
  type AGENT_SKILLS,
  AI_CATALOG_MEDIA_TYPE,
  agentSkillPath,
  OPENAPI_JSON_PATH,
  OPENAPI_YAML_PATH,
} from '../site/discovery-documents.ts';
import { largestIconUrl } from '../site/site-icons.ts';

/**
 * The catalog's format version. The AI Catalog's own examples, the MCP server-card discovery
 * document and the ARD schema (ards-project/ard-spec, spec/schemas/ai-catalog.schema.json, an
 * enum of this one value) all say "1.0"; a catalog that says otherwise fails that schema.
 */
const SPEC_VERSION = '1.0';

/**
 * The `type` of each kind of entry (specification/ai-catalog.md, "Catalog Entry" > `type`): an
 * MCP server card, an Agent Skill as one Markdown file (the value the ARD conformance tool lists,
 * ards-project/ard-spec conformance/bin/conformance-test; the catalog's own
 * `application/agent-skills+md` waits for `+md` to be registered), a nested catalog, and an
 * OpenAPI description in JSON or YAML (draft-ietf-httpapi-rest-api-mediatypes, section 3; the
 * catalog lists no type for it).
 */
const ENTRY_TYPES = {
  mcp: SERVER_CARD_MEDIA_TYPE,
  skill: 'text/markdown; profile="urn:air:agent-skills"',
  catalog: AI_CATALOG_MEDIA_TYPE,
  openapiJson: 'application/openapi+json',
  openapiYaml: 'application/openapi+yaml',
} as const;

/**
 * Two to five questions each entry answers, which ARD registries embed for search (ARD,
 * "Catalog Entry Object" > `representativeQueries`; Lighthouse's ARD audit warns without them).
 */
const MCP_QUERIES: Record<McpServerId, readonly string[]> = {
  product: ['which projects use TypeScript', 'compare two portfolio projects', 'send a message to the developer'],
  docs: ['how do I authenticate to the portfolio API', 'what are the API rate limits', 'search the API documentation'],
};
const SKILL_QUERIES: Record<(typeof AGENT_SKILLS)[number]['name'], readonly string[]> = {
  'portfolio-api': ['how should an agent use the portfolio API', 'call the portfolio API from an agent'],
};
const API_QUERIES: readonly string[] = ['list the projects in the portfolio', 'get one project by its slug'];

/** What the catalog is made from: the site, the OpenAPI description's title and the published skills. */
export interface AiCatalogSources {
  siteUrl: string;
  siteName: string;
  apiTitle: string;
  skills: readonly { name: (typeof AGENT_SKILLS)[number]['name']; title: string; description: string }[];
}

/**
 * /.well-known/ai-catalog.json (Agent-Card/ai-catalog, specification/ai-catalog.md, "Top-Level
 * Structure", "Host Info", "Catalog Entry"): both MCP servers by their cards, the agent skills and
 * the API, each by `url` but the API. Identifiers are `urn:air:{publisher}:{namespace}:{name}` with
 * this host's domain as publisher ("Catalog Entry" > `identifier`). `displayName` repeats the
 * card's title, which the catalog would let a client read from the card; ARD's schema requires
 * it, and both come from MCP_SERVERS, so they cannot drift.
 *
 * The API is one entry whose content is a nested catalog of its two OpenAPI descriptions, JSON
 * and YAML: one logical artifact in several representations, as the specification's
 * "Dual-Protocol Agent" example groups one agent's MCP and A2A entries. A top-level entry of an
 * OpenAPI type would also do, but ARD's conformance check (Lighthouse's `ard-schema` audit) warns
 * on every type outside its short list of discovery types, and none of them is an API description.
 */
export function aiCatalog({ siteUrl, siteName, apiTitle, skills }: AiCatalogSources) {
  const publisher = new URL(siteUrl).hostname;
  const identifier = (namespace: 'mcp' | 'skill' | 'api', name: string) => `urn:air:${publisher}:${namespace}:${name}`;
  const api = identifier('api', 'portfolio');
  return {
    specVersion: SPEC_VERSION,
    // "Host Info" > `logoUrl`, the catalog's one icon field: the site icon's largest PNG (site-icons.ts).
    host: {
      displayName: siteName,
      identifier: publisher,
      documentationUrl: `${siteUrl}/developers`,
      logoUrl: largestIconUrl(siteUrl),
    },
    entries: [
      ...(Object.keys(MCP_SERVERS) as McpServerId[]).map((id) => ({
        identifier: identifier('mcp', MCP_SERVERS[id].name),
        displayName: MCP_SERVERS[id].title,
        type: ENTRY_TYPES.mcp,
        url: `${siteUrl}${cardBesideServer(id)}`,
        representativeQueries: MCP_QUERIES[id],
        // Where a person finds the install links for this server (ARD, "Catalog Entry Object" > `metadata`).
        metadata: { installPage: connectPageUrl(siteUrl, id) },
      })),
      ...skills.map((skill) => ({
        identifier: identifier('skill', skill.name),
        displayName: skill.title,
        type: ENTRY_TYPES.skill,
        url: `${siteUrl}${agentSkillPath(skill.name)}`,
        description: skill.description,
        representativeQueries: SKILL_QUERIES[skill.name],
      })),
      {
        identifier: api,
        displayName: apiTitle,
        type: ENTRY_TYPES.catalog,
        description: 'The HTTP API, described in OpenAPI as JSON and as YAML.',
        representativeQueries: API_QUERIES,
        data: {
          specVersion: SPEC_VERSION,
          entries: [
            {
              identifier: `${api}:json`,
              displayName: `${apiTitle} (OpenAPI, JSON)`,
              type: ENTRY_TYPES.openapiJson,
              url: `${siteUrl}${OPENAPI_JSON_PATH}`,
            },
            {
              identifier: `${api}:yaml`,
              displayName: `${apiTitle} (OpenAPI, YAML)`,
              type: ENTRY_TYPES.openapiYaml,
              url: `${siteUrl}${OPENAPI_YAML_PATH}`,
            },
          ],
        },
      },
    ],
  };
}
