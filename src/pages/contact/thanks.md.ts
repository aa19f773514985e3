import type { APIRoute } from 'astro';
import { THANKS_PAGE, simplePageAsMarkdown } from '../../lib/simple-pages.ts';
import { markdownResponse } from '../../lib/site-documents.ts';

/** The thank-you page as Markdown at /contact/thanks.md. */
export const GET: APIRoute = () => markdownResponse(simplePageAsMarkdown(THANKS_PAGE));
