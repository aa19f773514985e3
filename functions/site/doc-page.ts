/**
 * A documentation page as the build publishes it in /docs.json: the docs MCP server reads them
 * from there, so it serves exactly the Markdown the site serves.
 */
export interface DocPage {
  /** The page's path on the site, without extension, such as `/developers/cli` (its slug with a leading slash). */
  path: string;
  title: string;
  description: string;
  /** The page's Markdown twin (the `.md` URL), title and summary included. */
  markdown: string;
}

/** The skill guide the integration prompt walks through (content/docs/agents.md). */
export const AGENT_GUIDE_PATH = '/agents';
