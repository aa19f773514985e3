import { z } from 'zod';

/** A union of one or more schemas (an OpenAPI anyOf); zod itself wants at least two members. */
export function unionOf<T>(
  schemas: readonly z.ZodType<T, z.ZodTypeDef, unknown>[],
): z.ZodType<T, z.ZodTypeDef, unknown> {
  const [first, second, ...rest] = schemas;
  if (first === undefined) throw new Error('unionOf needs at least one schema');
  return second === undefined ? first : z.union([first, second, ...rest]);
}
