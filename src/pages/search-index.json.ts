import type { APIRoute } from 'astro';
import { searchIndexJson } from '../lib/search-index.ts';
import { textResponse } from '../lib/site-documents.ts';

/** The search index as /search-index.json; the production server loads it at start (functions/hosts/static/build-output.ts). */
export const GET: APIRoute = async () => textResponse(await searchIndexJson(), 'application/json; charset=utf-8');
