import type { APIRoute } from 'astro';
import { loadConfig } from '../../functions/config/env.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { textResponse } from '../lib/site-documents.ts';

/** The OpenAPI description, generated at build from the definitions the API runs on. */
export const GET: APIRoute = () =>
  textResponse(`${JSON.stringify(buildOpenApiDocument(loadConfig()), null, 2)}\n`, 'application/json; charset=utf-8');
