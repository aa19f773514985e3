import { loadConfig } from '../../functions/config/env.ts';
import { loadSite } from '../../functions/config/site.ts';
import { aiCatalog } from '../../functions/discovery/ai-catalog.ts';
import { AI_CATALOG_MEDIA_TYPE } from '../../functions/site/discovery-documents.ts';
import { buildOpenApiDocument } from '../../functions/openapi/document.ts';
import { publishedSkills } from './agent-skills.ts';
import { textResponse } from './site-documents.ts';

/**
 * The AI Catalog (functions/discovery/ai-catalog.ts): both MCP servers, the agent skills and the
 * OpenAPI description. The same bytes are published at /.well-known/ai-catalog.json and, as the
 * ARD manifest, at /.well-known/ard.json.
 */
export async function aiCatalogResponse(): Promise<Response> {
  const config = loadConfig();
  const catalog = aiCatalog({
    siteUrl: config.siteUrl,
    siteName: loadSite().name,
    apiTitle: buildOpenApiDocument(config).info.title,
    skills: await publishedSkills(),
  });
  return textResponse(`${JSON.stringify(catalog, null, 2)}\n`, AI_CATALOG_MEDIA_TYPE);
}
