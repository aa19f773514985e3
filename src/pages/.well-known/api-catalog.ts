import type { APIRoute } from 'astro';
import { MCP_CATALOG_PATH, MCP_SERVERS } from '../../../functions/mcp/server-identity.ts';
import { API_CATALOG_MEDIA_TYPE } from '../../../functions/server/media-types.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * /.well-known/api-catalog (RFC 9727): a linkset (RFC 9264) with one entry for the API, whose
 * relations point at its descriptions, documentation, metadata and status, and one entry per
 * MCP server, described by its server card.
 */
export const GET: APIRoute = () => {
  // The MCP servers run in the API's process under its rules: same auth, quotas and health.
  const sharedRelations = {
    'service-meta': [
      { href: absolute('/auth.md'), type: 'text/markdown' },
      { href: absolute('/pricing.md'), type: 'text/markdown' },
    ],
    status: [{ href: absolute('/api/health'), type: 'application/json' }],
  };
  const linkset = {
    linkset: [
      {
        anchor: absolute('/api/v1'),
        'service-desc': [
          { href: absolute('/openapi.json'), type: 'application/vnd.oai.openapi+json' },
          { href: absolute('/openapi.yaml'), type: 'application/vnd.oai.openapi' },
        ],
        'service-doc': [{ href: absolute('/developers'), type: 'text/html' }],
        ...sharedRelations,
      },
      ...Object.values(MCP_SERVERS).map((server) => ({
        anchor: absolute(server.path),
        'service-desc': [{ href: absolute(server.cardPath), type: 'application/json' }],
        'service-doc': [{ href: absolute('/developers#mcp-servers'), type: 'text/html' }],
        ...sharedRelations,
        // The MCP Catalog is metadata about the MCP servers as a set (RFC 8631 service-meta).
        'service-meta': [
          ...sharedRelations['service-meta'],
          { href: absolute(MCP_CATALOG_PATH), type: 'application/json' },
        ],
      })),
    ],
  };
  return textResponse(`${JSON.stringify(linkset, null, 2)}\n`, API_CATALOG_MEDIA_TYPE);
};
