import type { APIRoute } from 'astro';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * RFC 9728 protected resource metadata. `resource` is the URL this document was built from
 * (section 3.3); members that would be empty are left out. Credentials are optional: see /auth.
 */
export const GET: APIRoute = () =>
  textResponse(
    `${JSON.stringify(
      {
        resource: absolute('/api/v1'),
        authorization_servers: [absolute('')],
        bearer_methods_supported: ['header'],
        resource_name: 'Portfolio API',
        resource_documentation: absolute('/auth'),
      },
      null,
      2,
    )}\n`,
    'application/json; charset=utf-8',
  );
