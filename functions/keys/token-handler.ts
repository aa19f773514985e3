import { jsonResponse } from '../http/json.ts';
import { isFormContentType } from '../http/json-body.ts';
import type { RouteHandler } from '../http/router.ts';
import { headerValue, type ApiRequest, type ApiResponse, type HeaderMap } from '../http/types.ts';
import type { KeyService } from './key-service.ts';
import { OAUTH_SCOPES, tokenRequestSchema, type OAUTH_ERRORS } from './schema.ts';

type OAuthError = (typeof OAUTH_ERRORS)[number];

/** RFC 6749 section 5.1: token answers also say no-store to HTTP/1.0 caches. */
const NO_CACHE = { pragma: 'no-cache' };

/** RFC 6749 section 5.2: an invalid client answers 401, every other token error 400. */
export function oauthErrorStatus(error: OAuthError): number {
  return error === 'invalid_client' ? 401 : 400;
}

function oauthError(error: OAuthError, description: string): ApiResponse {
  const status = oauthErrorStatus(error);
  // RFC 6749 section 5.2: a failed client authentication answers 401 with a challenge.
  const challenge: HeaderMap =
    status === 401 ? { 'www-authenticate': 'Basic realm="portfolio-api", charset="UTF-8"' } : {};
  return jsonResponse(status, { error, error_description: description }, { ...NO_CACHE, ...challenge });
}

/** Client credentials from HTTP Basic (RFC 6749 section 2.3.1: each part form-urlencoded) or the body. */
function clientCredentials(
  request: ApiRequest,
  form: URLSearchParams,
): { id: string; secret: string } | OAuthError | null {
  const authorization = headerValue(request, 'authorization');
  const inBody = form.has('client_id') || form.has('client_secret');
  if (authorization !== undefined) {
    if (inBody) return 'invalid_request';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!match) return 'invalid_client';
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return 'invalid_client';
    try {
      return {
        id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
        secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      };
    } catch {
      return 'invalid_client';
    }
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id === null || secret === null ? null : { id, secret };
}

/**
 * POST /oauth/token: the OAuth 2.0 client credentials grant (RFC 6749 section 4.4). The client id
 * is a keyId and the secret its test key; the answer is a short-lived bearer token that acts
 * exactly like the key.
 */
export function tokenHandler(keys: KeyService): RouteHandler {
  return async (request) => {
    if (!isFormContentType(request)) {
      return oauthError(
        'invalid_request',
        'Send the request as application/x-www-form-urlencoded (RFC 6749 section 4.4.2).',
      );
    }
    const form = new URLSearchParams((await request.readBody(4096)).toString('utf8'));
    // One pass with a set: getAll per name would read the whole form once for each name.
    const seen = new Set<string>();
    for (const name of form.keys()) {
      if (seen.has(name)) return oauthError('invalid_request', `The parameter ${name} is repeated.`);
      seen.add(name);
    }
    // The published TokenRequest schema is the check; only a string field can fail in a form, grant_type.
    const parsed = tokenRequestSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      return form.has('grant_type')
        ? oauthError('unsupported_grant_type', 'Only client_credentials is supported.')
        : oauthError('invalid_request', 'grant_type is required.');
    }
    // RFC 6749 section 3.3: scope is a space-delimited list.
    const asked = (parsed.data.scope ?? '').split(' ').filter((scope) => scope !== '');
    if (asked.some((scope) => !(OAUTH_SCOPES as readonly string[]).includes(scope)))
      return oauthError(
        'invalid_scope',
        `The only scope is ${OAUTH_SCOPES.join(', ')}; ask for it or leave scope out.`,
      );
    const credentials = clientCredentials(request, form);
    if (credentials === null)
      return oauthError('invalid_client', 'Authenticate with client_id (your keyId) and client_secret (your key).');
    if (typeof credentials === 'string') {
      return oauthError(
        credentials,
        credentials === 'invalid_request'
          ? 'Use HTTP Basic or body credentials, not both.'
          : 'Malformed Basic credentials.',
      );
    }
    const issued = await keys.issueToken(credentials.id, credentials.secret);
    if (issued === null) return oauthError('invalid_client', 'Unknown client, wrong secret, or the key has expired.');
    return jsonResponse(
      200,
      { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: OAUTH_SCOPES.join(' ') },
      NO_CACHE,
    );
  };
}
