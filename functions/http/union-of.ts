import { z } from 'zod';

/** A union of one or more schemas (an OpenAPI anyOf); zod itself wants at least two members. */
export function unionOf(schemas: readonly z.ZodType[]): z.ZodType {
  const [first, second, ...rest] = schemas;
  if (first === undefined) throw new Error('unionOf needs at least one schema');
  return second === undefined ? first : z.union([first, second, ...rest]);
}
