import type { APIRoute } from 'astro';
import { NOT_FOUND_PAGE, simplePageAsMarkdown } from '../lib/simple-pages.ts';
import { markdownResponse } from '../lib/site-documents.ts';

/** The 404 page as Markdown: the server answers a missing path asked as Markdown with it, status 404. */
export const GET: APIRoute = () => markdownResponse(simplePageAsMarkdown(NOT_FOUND_PAGE));
