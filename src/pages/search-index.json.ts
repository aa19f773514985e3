import type { APIRoute } from 'astro';
import { searchIndexJson } from '../lib/search-index.ts';

/** The search index as /search-index.json; the production server loads it at start (functions/server/main.ts). */
export const GET: APIRoute = async () =>
  new Response(await searchIndexJson(), { headers: { 'content-type': 'application/json; charset=utf-8' } });
