import type { APIRoute } from 'astro';
import { projectSources } from '../lib/catalog.ts';
import { textResponse } from '../lib/site-documents.ts';

/**
 * The whole portfolio as one JSON document, written at build. The production server loads
 * its catalog from this file, so the API serves exactly what the pages were built from.
 */
export const GET: APIRoute = async () =>
  textResponse(JSON.stringify({ projects: await projectSources() }), 'application/json; charset=utf-8');
