import { serviceUrl, type PublicOrigins } from '../config/public-urls.ts';
import { deprecatedAliases } from '../operations/deprecation.ts';
import { API_BASE_PATH, protectedResourceMetadataPath } from '../site/discovery-documents.ts';
import { conditionalJson, representation } from '../http/json.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import { OPERATIONS, type OperationId } from '../operations/operations.ts';
import type { apiIndexSchema } from './schema.ts';
import type { z } from 'zod';

/** The index of the API, made from the operations table and the site's URL. */
function apiIndex(origins: PublicOrigins): z.infer<typeof apiIndexSchema> {
  const { siteUrl } = origins;
  const aliases = new Set<string>(deprecatedAliases().map((alias) => alias.operationId));
  return {
    name: 'Portfolio API',
    version: API_BASE_PATH.slice(API_BASE_PATH.lastIndexOf('/') + 1),
    links: {
      openapi: `${siteUrl}/openapi.json`,
      openapiYaml: `${siteUrl}/openapi.yaml`,
      docs: `${siteUrl}/developers`,
      catalog: `${siteUrl}/.well-known/api-catalog`,
      resourceMetadata: `${siteUrl}${protectedResourceMetadataPath(API_BASE_PATH)}`,
      health: serviceUrl(origins, OPERATIONS.getHealth.path),
    },
    operations: (Object.keys(OPERATIONS) as OperationId[])
      .filter((id) => !aliases.has(id))
      .map((operationId) => {
        const { method, path, summary } = OPERATIONS[operationId];
        return { operationId, method, path, summary };
      }),
  };
}

/**
 * GET /api/v1 (getApiIndex): the api-catalog's anchor answers with an index of the API rather
 * than a 404. Built once; a request costs the quota check and an ETag comparison.
 */
export function apiIndexHandler(origins: PublicOrigins): RouteHandler {
  const index = representation(apiIndex(origins));
  return (request) => {
    strictQuery(request.query, []);
    return conditionalJson(request, index);
  };
}
