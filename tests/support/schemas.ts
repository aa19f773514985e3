import { z } from 'zod';
import { MAX_LISTED_ERRORS } from '../../functions/http/api-error.ts';
import { projectSchema } from '../../functions/projects/schema.ts';

/** The Project, Error and problem document shapes, checked strictly so that extra fields show up. */
export const listResponseSchema = z
  .object({
    data: z.array(projectSchema.strict()),
    pagination: z.object({ nextCursor: z.string().nullable(), hasMore: z.boolean(), limit: z.number().int() }).strict(),
  })
  .strict();

export const errorSchema = z
  .object({
    code: z.string().regex(/^[a-z_]+$/),
    message: z.string().min(1),
    hint: z.string().optional(),
    requestId: z.string(),
  })
  .strict();

export const problemSchema = errorSchema.extend({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string(),
});

export const validationErrorSchema = errorSchema.extend({
  errors: z
    .array(z.object({ field: z.string().min(1), problem: z.string().min(1) }).strict())
    .min(1)
    .max(MAX_LISTED_ERRORS),
  moreErrors: z.number().int().min(1).optional(),
});
