import { absoluteMarkdownLinks } from './absolute-links.ts';
import { withLlmsTxtPointer } from './llms-txt-pointer.ts';

/**
 * A page's Markdown exactly as its twin serves it (`/auth.md`, `/projects/x.md`): links absolute
 * and the llms.txt pointer after the title. The MCP servers return the same text for the same
 * page, so an agent gets one document whichever way it asks.
 */
export function markdownTwinText(markdown: string, siteUrl: string, pagePath: string): string {
  return withLlmsTxtPointer(absoluteMarkdownLinks(markdown, siteUrl, pagePath), siteUrl);
}
