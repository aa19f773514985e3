import { z } from 'zod';

// The answers of the operations about the service itself (api-index.ts, health.ts, sandbox-ping.ts).

/** GET /api/v1: where everything about the API is, as absolute URLs. */
export const apiIndexSchema = z.object({
  name: z.string(),
  version: z.string().describe('The version in the path, also accepted in X-API-Version.'),
  links: z.object({
    openapi: z.string().url().describe('The OpenAPI 3.0.3 description as JSON.'),
    openapiYaml: z.string().url().describe('The same description as YAML.'),
    docs: z.string().url().describe('The developer documentation.'),
    catalog: z.string().url().describe('The RFC 9727 api-catalog.'),
    resourceMetadata: z.string().url().describe("The API's RFC 9728 protected resource metadata."),
    health: z.string().url(),
  }),
  operations: z
    .array(
      z.object({
        operationId: z.string(),
        method: z.enum(['GET', 'POST']),
        path: z.string().describe('The path, with `{name}` for a path parameter.'),
        summary: z.string(),
      }),
    )
    .describe('Every current operation (deprecated aliases are in the OpenAPI description).'),
});

/** GET /api/health. */
export const healthSchema = z.object({
  status: z.enum(['ok']),
  projects: z.number().int().min(0).describe('Projects the service holds.'),
  uptimeSeconds: z.number().int().min(0),
});

/** GET /api/v1/sandbox/ping. */
export const sandboxPingSchema = z.object({
  pong: z.boolean(),
  sandbox: z.boolean().describe('Whether this request ran in sandbox mode.'),
});
