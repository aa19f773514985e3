import type { APIRoute } from 'astro';
import { API_BASE_PATH, protectedResourceMetadataPath } from '../../../functions/docs/discovery-documents.ts';
import { MCP_CATALOG_PATH, MCP_SERVERS } from '../../../functions/mcp/server-identity.ts';
import { API_CATALOG_MEDIA_TYPE } from '../../../functions/server/media-types.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * /.well-known/api-catalog (RFC 9727): a linkset (RFC 9264) with one entry for the API, whose
 * relations point at its descriptions, documentation, metadata and status, and one entry per
 * MCP server, described by its server card. Each `type` hint is the media type the server sends
 * for that URL (functions/server/media-types.ts), parameters aside; the API's service-meta also
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
          { href: absolute('/openapi.json'), type: 'application/json' },
          { href: absolute('/openapi.yaml'), type: 'application/yaml' },
        ],
        'service-doc': [{ href: absolute('/developers'), type: 'text/html' }],
        'service-meta': serviceMeta(API_BASE_PATH),
        status,
      },
      ...Object.values(MCP_SERVERS).map((server) => ({
        anchor: absolute(server.path),
        'service-desc': [{ href: absolute(server.cardPath), type: 'application/json' }],
        'service-doc': [{ href: absolute('/developers#mcp-servers'), type: 'text/html' }],
        // The MCP Catalog is metadata about the MCP servers as a set (RFC 8631 service-meta).
        'service-meta': [...serviceMeta(''), { href: absolute(MCP_CATALOG_PATH), type: 'application/json' }],
        status,
      })),
    ],
  };
  return textResponse(`${JSON.stringify(linkset, null, 2)}\n`, API_CATALOG_MEDIA_TYPE);
};
