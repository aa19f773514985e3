import { CONNECT_PATH } from '../../functions/discovery/install-links.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';

/**
 * The home page's links for developers and agents, in its HTML (src/pages/index.astro) and its
 * Markdown twin (src/pages/index.md.ts). `page` marks a page for people, which the twin links by
 * its own Markdown twin; documents are linked as they are.
 */
export const DEVELOPER_LINKS = [
  { label: 'Developer documentation', path: '/developers', page: true, note: 'the public HTTP API and how to use it' },
  { label: 'OpenAPI description', path: '/openapi.json', page: false, note: 'the API contract (also as YAML)' },
  { label: 'MCP servers', path: '/developers#mcp-servers', page: true, note: 'two servers for AI agents' },
  {
    label: 'Connect an agent',
    path: CONNECT_PATH,
    page: true,
    note: 'add both servers to Cursor, VS Code, Claude, ChatGPT and more in one click',
  },
  { label: 'llms.txt', path: '/llms.txt', page: false, note: 'the index of this site for language models' },
] as const;

/** Where a developer link points from the Markdown twin. */
export function developerLinkInMarkdown(link: (typeof DEVELOPER_LINKS)[number]): string {
  return link.page ? markdownTwinPath(link.path) : link.path;
}
