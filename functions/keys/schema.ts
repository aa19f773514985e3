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

/** Error codes of RFC 6749 section 5.2 that the token endpoint can answer with. */
export const OAUTH_ERRORS = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'] as const;

/** RFC 6749 section 4.4.2. The client may authenticate with HTTP Basic instead of the two client fields. */
export const tokenRequestSchema = z.object({
  grant_type: z.enum(['client_credentials']),
  client_id: z.string().optional().describe('The keyId, unless sent with HTTP Basic.'),
  client_secret: z.string().optional().describe('The test key, unless sent with HTTP Basic.'),
  scope: z.string().optional().describe('This server defines no scopes: leave it out or empty.'),
});

/** RFC 6749 section 5.1. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer']),
  expires_in: z.number().int().min(0).describe('Seconds until the token expires; never past the key itself.'),
});

/** RFC 6749 section 5.2. */
export const oauthErrorSchema = z.object({
  error: z.enum(OAUTH_ERRORS),
  error_description: z.string().describe('What went wrong, for people.'),
});
