import type { APIRoute } from 'astro';
import {
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  API_BASE_PATH,
  OPENAPI_JSON_PATH,
  OPENAPI_YAML_PATH,
  protectedResourceMetadataPath,
} from '../../../functions/site/discovery-documents.ts';
import {
  cardBesideServer,
  MCP_SERVERS,
  SERVER_CARD_MEDIA_TYPE,
  type McpServerId,
} from '../../../functions/mcp/server-identity.ts';
import { API_CATALOG_MEDIA_TYPE } from '../../../functions/hosts/static/media-types.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * /.well-known/api-catalog (RFC 9727): a linkset (RFC 9264) with one entry for the API, whose
 * relations point at its descriptions, documentation, metadata and status, and one entry per
 * MCP server, described by its server card (at the path its draft reserves). Each `type` hint is the media type the server sends
 * for that URL (functions/hosts/static/media-types.ts), parameters aside; the API's service-meta also
 * names its RFC 9728 metadata, and each MCP server's the origin's, which covers it.
 */
export const GET: APIRoute = () => {
  // The MCP servers run in the API's process under its rules: same auth, quotas and health.
  const serviceMeta = (resourcePath: '' | typeof API_BASE_PATH) => [
    { href: absolute('/auth.md'), type: 'text/markdown' },
    { href: absolute('/pricing.md'), type: 'text/markdown' },
    { href: absolute(protectedResourceMetadataPath(resourcePath)), type: 'application/json' },
  ];
  const status = [{ href: absolute('/api/health'), type: 'application/json' }];
  const linkset = {
    linkset: [
      {
        anchor: absolute(API_BASE_PATH),
        'service-desc': [
          { href: absolute(OPENAPI_JSON_PATH), type: 'application/json' },
          { href: absolute(OPENAPI_YAML_PATH), type: 'application/yaml' },
        ],
        'service-doc': [{ href: absolute('/developers'), type: 'text/html' }],
        'service-meta': serviceMeta(API_BASE_PATH),
        status,
      },
      ...(Object.keys(MCP_SERVERS) as McpServerId[]).map((id) => ({
        anchor: absolute(MCP_SERVERS[id].path),
        'service-desc': [{ href: absolute(cardBesideServer(id)), type: SERVER_CARD_MEDIA_TYPE }],
        'service-doc': [{ href: absolute('/developers#mcp-servers'), type: 'text/html' }],
        // The AI Catalog lists the MCP servers as a set, with the API and the skills (RFC 8631 service-meta).
        'service-meta': [...serviceMeta(''), { href: absolute(AI_CATALOG_PATH), type: AI_CATALOG_MEDIA_TYPE }],
        status,
      })),
    ],
  };
  return textResponse(`${JSON.stringify(linkset, null, 2)}\n`, API_CATALOG_MEDIA_TYPE);
};
