import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

let extended = false;

/**
 * Adds zod-to-openapi's `.openapi()` to every zod schema, on the first call. Only the generator
 * needs it, so it happens when a description is generated, never because a module was loaded:
 * the running API and MCP servers never load zod-to-openapi. The extension changes no parsing.
 */
export function openApiZod(): typeof z {
  if (!extended) extendZodWithOpenApi(z);
  extended = true;
  return z;
}
