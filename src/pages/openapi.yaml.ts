import type { APIRoute } from 'astro';
import { stringify } from 'yaml';
import { loadConfig } from '../../functions/config/env.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { textResponse } from '../lib/site-documents.ts';

/**
 * The same document as /openapi.json, as YAML. Objects the generator shares between
 * operations are written out in full, not as YAML anchors and aliases, which some OpenAPI
 * tools do not follow.
 */
export const GET: APIRoute = () =>
  textResponse(
    stringify(buildOpenApiDocument(loadConfig()), { aliasDuplicateObjects: false }),
    'application/yaml; charset=utf-8',
  );
