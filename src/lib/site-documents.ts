import { publicUrl } from '../../functions/config/public-urls.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { withLlmsTxtPointer } from '../../functions/site/llms-txt-pointer.ts';
import { MARKDOWN } from '../../functions/site/markdown-twin.ts';

/** The absolute URL of `path`: on SITE_URL, or on API_ORIGIN for a dynamic path (functions/config/public-urls.ts). */
export function absolute(path: string): string {
  return publicUrl(loadConfig(), path);
}

/** A text response with an exact media type (the production server keeps it by extension). */
export function textResponse(body: string, mediaType: string): Response {
  return new Response(body, { headers: { 'content-type': mediaType } });
}

/** A page's Markdown twin as served: the pointer to llms.txt after its title, as text/markdown. */
export function markdownResponse(markdown: string): Response {
  return textResponse(withLlmsTxtPointer(markdown, loadConfig().siteUrl), MARKDOWN);
}
