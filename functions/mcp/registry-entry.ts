import type { PublicOrigins } from '../config/public-urls.ts';
import { REGISTRY_AUTH_PATH } from './registry-auth.ts';
import { listedIdentity, MCP_SERVERS, registryEntryPath, type McpServerId } from './server-identity.ts';

/**
 * The registry's server.json schema this entry follows: the newest dated release
 * (modelcontextprotocol/registry, docs/reference/server-json/CHANGELOG.md, "2025-12-11"), which
 * the registry validates a published entry against (internal/validators/schemas/2025-12-11.json).
 */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * One server's entry in the MCP Registry (server.json, schema `ServerDetail`): the same name,
 * version, title, description, website and icons as its server card, from the one listed identity
 * (server-identity.ts listedIdentity), and one remote, its Streamable HTTP endpoint by absolute
 * URL. No packages: the servers run only here. No `repository`: the owner's source may be private.
 */
export function registryEntry(id: McpServerId, origins: PublicOrigins) {
  const { name, version, title, description, websiteUrl, icons, endpoint } = listedIdentity(id, origins);
  return {
    $schema: SERVER_JSON_SCHEMA,
    name,
    title,
    description,
    version,
    websiteUrl,
    icons,
    remotes: [{ type: 'streamable-http', url: endpoint }],
  };
}

/** The entry as the bytes the build writes and `npm run registry` prints. */
export function registryEntryJson(id: McpServerId, origins: PublicOrigins): string {
  return `${JSON.stringify(registryEntry(id, origins), null, 2)}\n`;
}

/**
 * The registry's documents as the build publishes them: each server's entry and the proof record.
 * Public like the discovery documents, so served to every origin (built-file-headers.ts).
 */
export const REGISTRY_DOCUMENT_PATHS: readonly string[] = [
  ...(Object.keys(MCP_SERVERS) as McpServerId[]).map(registryEntryPath),
  REGISTRY_AUTH_PATH,
];
