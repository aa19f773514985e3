import type { APIRoute } from 'astro';
import { API_BASE_PATH } from '../../../functions/site/discovery-documents.ts';
import { OAUTH_SCOPES } from '../../../functions/keys/schema.ts';
import { absolute, textResponse } from '../../lib/site-documents.ts';

/**
 * RFC 8414 authorization server metadata for the one grant that exists: client credentials at
 * /oauth/token. `response_types_supported` is required but only meaningful for an
 * authorization endpoint, which does not exist: /auth explains the "none" value.
 * `protected_resources` (RFC 9728 section 4) names the resources whose metadata points here.
 */
export const GET: APIRoute = () =>
  textResponse(
    `${JSON.stringify(
      {
        issuer: absolute(''),
        token_endpoint: absolute('/oauth/token'),
        grant_types_supported: ['client_credentials'],
        scopes_supported: [...OAUTH_SCOPES],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        response_types_supported: ['none'],
        service_documentation: absolute('/auth'),
        protected_resources: [absolute(''), absolute(API_BASE_PATH)],
      },
      null,
      2,
    )}\n`,
    'application/json; charset=utf-8',
  );
