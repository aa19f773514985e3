import type { APIRoute } from 'astro';
import { aiCatalogResponse } from '../../lib/ai-catalog-document.ts';

/** The same catalog as the ARD manifest, where ARD v0.91 clients look first (functions/site/discovery-documents.ts ARD_PATH). */
export const GET: APIRoute = () => aiCatalogResponse();
