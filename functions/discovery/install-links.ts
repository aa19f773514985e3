import { publicUrl, type PublicOrigins } from '../config/public-urls.ts';
import { MCP_SERVERS, type McpServerId } from '../mcp/server-identity.ts';

/** The page for people that lists every way to add the servers to a client (src/pages/connect.astro). */
export const CONNECT_PATH = '/connect';

/** The absolute address of one server's part of the Connect page: its section's id is the server's name. */
export function connectPageUrl(siteUrl: string, id: McpServerId): string {
  return `${siteUrl}${CONNECT_PATH}#${MCP_SERVERS[id].name}`;
}

/**
 * Everything a client needs to add one server, each made from the server's name and its absolute
 * URL only, so the page, its Markdown twin and the tests show the same bytes. Commands are for a
 * POSIX shell. Steps are sentences whose `code` is marked with backticks.
 */
export interface McpInstall {
  id: McpServerId;
  name: string;
  title: string;
  description: string;
  /** The Streamable HTTP endpoint, on API_ORIGIN when the pages are served elsewhere. */
  url: string;
  cursor: { deeplink: string; web: string };
  vscode: { link: string; insidersLink: string; command: string };
  claudeCode: string;
  claudeSteps: readonly string[];
  chatgptSteps: readonly string[];
  codex: { command: string; toml: string };
  windsurf: string;
  generic: string;
}

/** Every server's install links and commands, in MCP_SERVERS's order. */
export function mcpInstalls(origins: PublicOrigins): McpInstall[] {
  return (Object.keys(MCP_SERVERS) as McpServerId[]).map((id) => mcpInstall(id, origins));
}

function mcpInstall(id: McpServerId, origins: PublicOrigins): McpInstall {
  const { name, title, description } = MCP_SERVERS[id];
  const url = publicUrl(origins, MCP_SERVERS[id].path);
  // VS Code's install object is the one `code --add-mcp` takes ("MCP URL handler").
  const vscodeServer = JSON.stringify({ name, type: 'http', url });
  const cursorQuery = new URLSearchParams({ name, config: cursorConfig(url) }).toString();
  return {
    id,
    name,
    title,
    description,
    url,
    cursor: {
      deeplink: `cursor://anysphere.cursor-deeplink/mcp/install?${cursorQuery}`,
      web: `https://cursor.com/en/install-mcp?${cursorQuery}`,
    },
    vscode: {
      link: `vscode:mcp/install?${encodeURIComponent(vscodeServer)}`,
      insidersLink: `vscode-insiders:mcp/install?${encodeURIComponent(vscodeServer)}`,
      command: `code --add-mcp ${shellWord(vscodeServer)}`,
    },
    claudeCode: `claude mcp add --transport http ${shellWord(name)} ${shellWord(url)}`,
    claudeSteps: [
      'In Claude (claude.ai or Claude Desktop), open Settings, then Connectors.',
      'Choose Add custom connector.',
      `Enter the name \`${name}\` and the remote MCP server URL \`${url}\`.`,
      'Choose Add, then turn the connector on for a conversation from the tools menu.',
    ],
    chatgptSteps: [
      'In ChatGPT, open Settings, then Apps & Connectors, then Advanced settings, and turn on Developer mode.',
      'Back in Apps & Connectors, choose Create.',
      `Enter the name \`${name}\`, the MCP server URL \`${url}\`, and No authentication; confirm that you trust the connector.`,
      'Choose Create, then pick the connector from Developer mode in a new chat.',
    ],
    codex: {
      command: `codex mcp add ${shellWord(name)} --url ${shellWord(url)}`,
      toml: `[mcp_servers.${name}]\nurl = ${JSON.stringify(url)}\n`,
    },
    windsurf: json({ mcpServers: { [name]: { serverUrl: url } } }),
    generic: json({ mcpServers: { [name]: { type: 'http', url } } }),
  };
}

/**
 * Cursor's install link carries the server's mcp.json entry, here a remote server by its `url`,
 * as base64 JSON (cursor.com/docs/mcp/install-links, "Generate install link"); the query is
 * percent-encoded so that `+`, `/` and `=` of base64 survive any query parser. A parsed URL's
 * href is ASCII (hosts in punycode, the rest percent-encoded), which is what btoa takes.
 */
function cursorConfig(url: string): string {
  return btoa(JSON.stringify({ url }));
}

/** A JSON document as a client's config file holds it, two-space indented. */
function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Characters a POSIX shell word may hold without quotes (a URL's usual ones). */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~-]+$/;

/** `text` as one POSIX shell word: as it is when plain, else in single quotes (a `'` inside as `'\''`). */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
