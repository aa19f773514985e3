import path from 'node:path';
import { AI_CATALOG_MEDIA_TYPE, AI_CATALOG_PATH, ARD_PATH } from '../../site/discovery-documents.ts';
import { REGISTRY_AUTH_MEDIA_TYPE, REGISTRY_AUTH_PATH } from '../../mcp/registry-auth.ts';
import { SERVER_CARD_MEDIA_TYPE, SERVER_CARD_PATHS } from '../../mcp/server-identity.ts';

/**
 * Media types by file extension, our own table: the served type must not depend on a
 * library's guess (Astro's static server sends .yaml as text/yaml, for example).
 */
const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** Media types worth compressing: text, and XML or JSON based formats. */
export function isCompressible(mediaType: string): boolean {
  return /^text\/|\+xml|\+json|^application\/(json|xml|yaml|javascript|manifest)/.test(mediaType);
}

/** RFC 9727 section 4.2: the catalog is a linkset (RFC 9264) with the api-catalog profile. */
export const API_CATALOG_MEDIA_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** Documents whose type is not their extension's: fixed by their RFCs or their drafts. */
const MEDIA_TYPES_BY_PATH: Record<string, string> = {
  '/.well-known/api-catalog': API_CATALOG_MEDIA_TYPE,
  '/.well-known/oauth-protected-resource/api/v1': 'application/json; charset=utf-8',
  '/.well-known/oauth-authorization-server': 'application/json; charset=utf-8',
  [AI_CATALOG_PATH]: AI_CATALOG_MEDIA_TYPE,
  [ARD_PATH]: AI_CATALOG_MEDIA_TYPE,
  // Extensionless; the registry asks for it as text/plain (functions/mcp/registry-auth.ts).
  [REGISTRY_AUTH_PATH]: REGISTRY_AUTH_MEDIA_TYPE,
  // The MCP server cards, at every path (functions/mcp/server-identity.ts).
  ...Object.fromEntries(SERVER_CARD_PATHS.map((urlPath) => [urlPath, SERVER_CARD_MEDIA_TYPE])),
};

export function mediaTypeFor(urlPath: string): string {
  return MEDIA_TYPES_BY_PATH[urlPath] ?? MEDIA_TYPES[path.extname(urlPath).toLowerCase()] ?? 'application/octet-stream';
}
