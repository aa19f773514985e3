import { z } from 'zod';

// The answers of the two operations about the service itself (health.ts, sandbox-ping.ts).

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
