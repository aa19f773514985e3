import { z } from 'zod';
import { jobSchema } from '../jobs/schema.ts';
import { projectSchema } from '../projects/schema.ts';

/** Batch operations mirror the read operations of the API, by operationId. */
export const BATCH_OPS = ['getProject', 'getJobStatus'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/** The body of batchOperations; the most operations per batch is configuration (BATCH_MAX_OPERATIONS). */
export function batchRequestSchema(maxOperations: number) {
  return z
    .object({
      operations: z
        .array(
          z
            .object({
              op: z.enum(BATCH_OPS, { error: `must be one of ${BATCH_OPS.join(', ')}` }),
              id: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
            })
            .strict(),
        )
        .min(1, 'must hold at least one operation')
        .max(maxOperations, `must hold at most ${maxOperations} operations`),
    })
    .strict();
}

export const batchResultSchema = z.object({
  index: z.number().int().min(0).describe('Position of the operation in the request.'),
  op: z.enum(BATCH_OPS),
  id: z.string(),
  status: z.number().int().describe('The status the single operation would have answered with.'),
  data: z.union([projectSchema, jobSchema]).describe('A Project for getProject, a Job for getJobStatus.'),
});

/** The 200 answer of batchOperations. */
export const batchResponseSchema = z.object({ results: z.array(batchResultSchema) });
