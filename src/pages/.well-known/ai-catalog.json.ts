import type { APIRoute } from 'astro';
import { aiCatalogResponse } from '../../lib/ai-catalog-document.ts';

/** The AI Catalog at its own well-known URI (Agent-Card/ai-catalog, specification/ai-catalog.md, "Well-Known URI"). */
export const GET: APIRoute = () => aiCatalogResponse();
