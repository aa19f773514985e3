import type { APIRoute } from 'astro';
import { docPages } from '../lib/docs.ts';
import { textResponse } from '../lib/site-documents.ts';

/**
 * Every documentation page as one JSON document, written at build: path, title, summary and
 * the Markdown its `.md` twin serves. The docs MCP server loads its pages from this file.
 */
export const GET: APIRoute = async () =>
  textResponse(JSON.stringify({ docs: await docPages() }), 'application/json; charset=utf-8');
