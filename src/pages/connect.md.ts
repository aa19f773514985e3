import type { APIRoute } from 'astro';
import { loadConfig } from '../../functions/config/env.ts';
import { mcpInstalls } from '../../functions/discovery/install-links.ts';
import { connectPageAsMarkdown } from '../lib/connect-page.ts';
import { markdownResponse } from '../lib/site-documents.ts';

/** The Connect page as Markdown at /connect.md: the same links and commands as the HTML. */
export const GET: APIRoute = () => markdownResponse(connectPageAsMarkdown(mcpInstalls(loadConfig())));
