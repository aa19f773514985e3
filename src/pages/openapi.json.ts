import type { APIRoute } from 'astro';
import { loadConfig } from '../../functions/config/env.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';

/** The OpenAPI description, generated at build from the definitions the API runs on. */
export const GET: APIRoute = () =>
  new Response(`${JSON.stringify(buildOpenApiDocument(loadConfig()), null, 2)}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
