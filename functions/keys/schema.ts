import { z } from 'zod';
import { TEST_KEY_PATTERN } from './key-format.ts';
import type { IssuedKey } from './key-service.ts';

/** The optional body of POST /api/v1/keys. */
export const createKeySchema = z.object({ label: z.string().trim().min(1).max(100).optional() }).strict();

/** The 201 answer of POST /api/v1/keys. */
export const issuedKeySchema = z.object({
  key: z
    .string()
    .regex(TEST_KEY_PATTERN)
    .describe('The test key. It is shown only this once; the service keeps only its hash.'),
  keyId: z.string().describe('Public identifier of the key; the client_id for POST /oauth/token.'),
  mode: z.enum(['test']),
  label: z.string().nullable(),
  createdAt: z.string().datetime(),
  expiresAt: z.string().datetime(),
}) satisfies z.ZodType<IssuedKey>;

/**
 * The scopes a token can carry (RFC 6749 section 3.3), published as scopes_supported in the OAuth
 * metadata (RFC 9728 and RFC 8414 section 2). There is one, `test`: a token grants what the test
 * key it was traded for grants (sandbox mode and the test quota tier), nothing more. A request
 * that names no scope gets it (section 3.3's pre-defined default); any other scope is invalid_scope.
 */
export const OAUTH_SCOPES = ['test'] as const;

/** What each scope grants, for the OpenAPI description's oauth2 flow. */
export const OAUTH_SCOPE_MEANINGS: Readonly<Record<(typeof OAUTH_SCOPES)[number], string>> = {
  test: 'What a test key grants: sandbox mode and the test quota tier.',
};

/** Error codes of RFC 6749 section 5.2 that the token endpoint can answer with. */
export const OAUTH_ERRORS = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'] as const;

/** RFC 6749 section 4.4.2. The client may authenticate with HTTP Basic instead of the two client fields. */
export const tokenRequestSchema = z.object({
  grant_type: z.enum(['client_credentials']),
  client_id: z.string().optional().describe('The keyId, unless sent with HTTP Basic.'),
  client_secret: z.string().optional().describe('The test key, unless sent with HTTP Basic.'),
  scope: z
    .string()
    .optional()
    .describe(
      `Space-separated scopes; the only one is ${OAUTH_SCOPES.join(', ')}, also the default when this is left out.`,
    ),
});

/** RFC 6749 section 5.1. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer']),
  expires_in: z.number().int().min(0).describe('Seconds until the token expires; never past the key itself.'),
  scope: z.enum(OAUTH_SCOPES).describe('The scope granted (RFC 6749 section 5.1), the same whether asked for or not.'),
});

/** RFC 6749 section 5.2. */
export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERRORS),
  error_description: z.string().describe('What went wrong, for people.'),
});
