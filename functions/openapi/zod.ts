import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The generator reads component names and descriptions from `.openapi()`, which this adds to
// every zod schema, including the ones the handlers already validate with. It is idempotent
// and changes no parsing behaviour. Every module of functions/openapi/ imports `z` from here,
// so the extension is in place before any schema below is described.
extendZodWithOpenApi(z);

export { z };

/** A union of one or more schemas (an OpenAPI anyOf); zod itself wants at least two members. */
export function unionOf<T>(schemas: readonly z.ZodType<T, z.ZodTypeDef, unknown>[]): z.ZodType<T, z.ZodTypeDef, unknown> {
  const [first, second, ...rest] = schemas;
  if (first === undefined) throw new Error('unionOf needs at least one schema');
  return second === undefined ? first : z.union([first, second, ...rest]);
}
