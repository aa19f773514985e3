import { loadSite } from '../../functions/config/site.ts';
import { API_BASE_PATH } from '../../functions/site/discovery-documents.ts';
import { OAUTH_SCOPES } from '../../functions/keys/schema.ts';
import { absolute, textResponse } from './site-documents.ts';

/**
 * RFC 9728 protected resource metadata for the origin (`''`) or the API (`/api/v1`). `resource`
 * is the identifier the well-known suffix was inserted into (section 3.3); members that would be
 * empty are left out. The authorization server is the origin itself (its RFC 8414 metadata lists
 * both resources); credentials are optional everywhere: see /auth.
 */
export function protectedResourceMetadata(resourcePath: '' | typeof API_BASE_PATH): Response {
  const metadata = {
    resource: absolute(resourcePath),
    authorization_servers: [absolute('')],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resourcePath === API_BASE_PATH ? 'Portfolio API' : `${loadSite().name}'s portfolio`,
    resource_documentation: absolute('/auth'),
  };
  return textResponse(`${JSON.stringify(metadata, null, 2)}\n`, 'application/json; charset=utf-8');
}
