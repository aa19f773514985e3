import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import type { SecurityRequirementObject, SecuritySchemeObject } from 'openapi3-ts/oas30';
import { OAUTH_SCOPE_MEANINGS } from '../keys/schema.ts';

/**
 * The optional test credentials. The API is public and nothing is required, so each operation
 * lists "no credentials" (`{}`) first; a key or token only selects sandbox mode and the test
 * quota tier, and one that does not verify is ignored (X-API-Key-Status: invalid), never a 401.
 */
export function securitySchemes(origins: PublicOrigins): Record<string, SecuritySchemeObject> {
  const optional = 'Optional. A test key from POST /api/v1/keys selects sandbox mode and the test quota tier.';
  return {
    apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: `${optional} Send the key itself.` },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: `${optional} Send the key, or an access token from POST /oauth/token, as a bearer token (RFC 6750).`,
    },
    oauth2: {
      type: 'oauth2',
      description: `${optional} The client credentials grant trades a keyId and its key for a short-lived access token that acts like the key.`,
      flows: {
        clientCredentials: { tokenUrl: serviceUrl(origins, '/oauth/token'), scopes: { ...OAUTH_SCOPE_MEANINGS } },
      },
    },
    clientBasic: {
      type: 'http',
      scheme: 'basic',
      description:
        'Client authentication at POST /oauth/token only (RFC 6749 section 2.3.1): the keyId as user name, the key as password.',
    },
  };
}

/** What the API operations accept: nothing, or one of the optional credentials. */
export const OPTIONAL_CREDENTIALS: SecurityRequirementObject[] = [{}, { apiKey: [] }, { bearer: [] }, { oauth2: [] }];

/** The token endpoint authenticates the client with HTTP Basic or with the form's client_id and client_secret. */
export const TOKEN_CLIENT: SecurityRequirementObject[] = [{ clientBasic: [] }, {}];
