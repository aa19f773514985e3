import type { APIRoute } from 'astro';
import { API_CATALOG_MEDIA_TYPE } from '../../../functions/server/media-types.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * /.well-known/api-catalog (RFC 9727): a linkset (RFC 9264) with one entry for the API, whose
 * relations point at its descriptions, documentation, metadata and status.
 */
export const GET: APIRoute = () => {
  const linkset = {
    linkset: [
      {
        anchor: absolute('/api/v1'),
        'service-desc': [
          { href: absolute('/openapi.json'), type: 'application/vnd.oai.openapi+json' },
          { href: absolute('/openapi.yaml'), type: 'application/vnd.oai.openapi' },
        ],
        'service-doc': [{ href: absolute('/developers'), type: 'text/html' }],
        'service-meta': [
          { href: absolute('/auth.md'), type: 'text/markdown' },
          { href: absolute('/pricing.md'), type: 'text/markdown' },
        ],
        status: [{ href: absolute('/api/health'), type: 'application/json' }],
      },
    ],
  };
  return textResponse(`${JSON.stringify(linkset, null, 2)}\n`, API_CATALOG_MEDIA_TYPE);
};
