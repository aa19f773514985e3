import type { McpInstall } from '../../functions/discovery/install-links.ts';

/**
 * The Connect page (/connect) as data: its HTML (src/pages/connect.astro) and its Markdown twin
 * (src/pages/connect.md.ts) both render these blocks, so they show the same links and commands,
 * all made by functions/discovery/install-links.ts.
 */
export const CONNECT_PAGE = {
  title: 'Connect an agent',
  description:
    'Add this portfolio’s two MCP servers to Cursor, VS Code, Claude, ChatGPT, Codex, Windsurf or any MCP client.',
  intro: [
    'Two Model Context Protocol servers answer over Streamable HTTP without a key: one for the portfolio (browse, search, compare, send a message) and one for the developer documentation. Add either, or both, to your client.',
    'Claude and ChatGPT connect from their own cloud, so they reach only a server on the public internet.',
  ],
} as const;

/** A snippet's language, for the Markdown fence. */
type SnippetLanguage = 'sh' | 'json' | 'toml' | 'text';

type ConnectBlock =
  | { kind: 'links'; links: readonly { label: string; href: string }[] }
  | { kind: 'snippet'; label: string; text: string; language: SnippetLanguage }
  | { kind: 'steps'; steps: readonly string[] };

/** One client's part of a server's section. */
export interface ClientSection {
  /** The heading's id, unique on the page: `<server name>-<client>`. */
  id: string;
  heading: string;
  blocks: readonly ConnectBlock[];
}

/** The clients, in the order the page shows them, each with what it needs for one server. */
export function clientSections(install: McpInstall): ClientSection[] {
  const section = (client: string, heading: string, blocks: ConnectBlock[]) => ({
    id: `${install.name}-${client}`,
    heading,
    blocks,
  });
  const snippet = (label: string, text: string, language: SnippetLanguage): ConnectBlock => ({
    kind: 'snippet',
    label: `${label} for ${install.name}`,
    text: text.replace(/\n$/, ''),
    language,
  });
  return [
    section('cursor', 'Cursor', [
      {
        kind: 'links',
        links: [
          { label: `Add ${install.name} to Cursor`, href: install.cursor.deeplink },
          { label: 'the same through cursor.com', href: install.cursor.web },
        ],
      },
    ]),
    section('vscode', 'VS Code', [
      {
        kind: 'links',
        links: [
          { label: `Install ${install.name} in VS Code`, href: install.vscode.link },
          { label: 'in VS Code Insiders', href: install.vscode.insidersLink },
        ],
      },
      snippet('VS Code command', install.vscode.command, 'sh'),
    ]),
    section('claude-code', 'Claude Code', [snippet('Claude Code command', install.claudeCode, 'sh')]),
    section('claude', 'Claude (claude.ai and Claude Desktop)', [{ kind: 'steps', steps: install.claudeSteps }]),
    section('chatgpt', 'ChatGPT (developer mode)', [{ kind: 'steps', steps: install.chatgptSteps }]),
    section('codex', 'Codex', [
      snippet('Codex command', install.codex.command, 'sh'),
      snippet('Codex ~/.codex/config.toml', install.codex.toml, 'toml'),
    ]),
    section('windsurf', 'Windsurf', [
      snippet('Windsurf ~/.codeium/windsurf/mcp_config.json', install.windsurf, 'json'),
    ]),
    section('other', 'Other clients', [snippet('mcpServers configuration', install.generic, 'json')]),
  ];
}

/** The server's URL as a snippet of its own, above the clients. */
export function serverUrlSnippet(install: McpInstall): ConnectBlock & { kind: 'snippet' } {
  return { kind: 'snippet', label: `Server URL of ${install.name}`, text: install.url, language: 'text' };
}

/** A step's text split at its backticks: odd parts are code. */
export function stepParts(step: string): { text: string; code: boolean }[] {
  return step.split('`').map((text, index) => ({ text, code: index % 2 === 1 }));
}

/** A block as Markdown: links as a list, steps numbered, snippets fenced. */
function blockAsMarkdown(block: ConnectBlock): string {
  if (block.kind === 'links') return block.links.map((link) => `- [${link.label}](${link.href})`).join('\n');
  if (block.kind === 'steps') return block.steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
  return `${block.label}:\n\n\`\`\`${block.language}\n${block.text}\n\`\`\``;
}

/** The page as Markdown, for its twin: each server's section carries the same anchor as the HTML. */
export function connectPageAsMarkdown(installs: readonly McpInstall[]): string {
  const servers = installs.flatMap((install) => [
    `## <a id="${install.name}"></a>${install.title} \`${install.name}\``,
    '',
    install.description,
    '',
    blockAsMarkdown(serverUrlSnippet(install)),
    '',
    ...clientSections(install).flatMap((client) => [
      `### ${client.heading}`,
      '',
      ...client.blocks.flatMap((block) => [blockAsMarkdown(block), '']),
    ]),
  ]);
  return [`# ${CONNECT_PAGE.title}`, '', ...CONNECT_PAGE.intro.flatMap((text) => [text, '']), ...servers].join('\n');
}
