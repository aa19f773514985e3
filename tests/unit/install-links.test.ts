import { describe, expect, it } from 'vitest';
import { CONNECT_PATH, connectPageUrl, mcpInstalls, shellWord } from '../../functions/discovery/install-links.ts';
import { MCP_SERVERS, type McpServerId } from '../../functions/mcp/server-identity.ts';

/** Each origin shape a deployment can have: plain, a site under a path and on a port, the servers on API_ORIGIN. */
const DEPLOYMENTS = [
  { origins: { siteUrl: 'https://ada.example', apiOrigin: null }, base: 'https://ada.example' },
  {
    origins: { siteUrl: 'http://localhost:8443/portfolio', apiOrigin: null },
    base: 'http://localhost:8443/portfolio',
  },
  {
    origins: { siteUrl: 'https://ada.example', apiOrigin: 'https://api.ada.example:8443' },
    base: 'https://api.ada.example:8443',
  },
];
const IDS = Object.keys(MCP_SERVERS) as McpServerId[];

/** A POSIX shell's reading of a command line of plain and single-quoted words. */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) =>
    match[1] === undefined ? match[2]! : match[1].replace(/'\\''/g, "'"),
  );
}

describe.each(DEPLOYMENTS)('install links for $base', ({ origins, base }) => {
  const installs = mcpInstalls(origins);

  it('covers both servers, each at its absolute URL with its name', () => {
    expect(installs.map(({ id, name, url }) => ({ id, name, url }))).toEqual(
      IDS.map((id) => ({ id, name: MCP_SERVERS[id].name, url: `${base}${MCP_SERVERS[id].path}` })),
    );
  });

  it.each(IDS)('gives %s links that parse and carry its name and URL', (id) => {
    const install = installs.find((entry) => entry.id === id)!;
    const { name, url } = install;
    for (const link of [install.cursor.deeplink, install.cursor.web]) {
      const parsed = new URL(link);
      expect(parsed.searchParams.get('name')).toBe(name);
      expect(JSON.parse(atob(parsed.searchParams.get('config')!))).toEqual({ url });
    }
    expect(new URL(install.cursor.deeplink).protocol).toBe('cursor:');
    expect(new URL(install.cursor.deeplink).host).toBe('anysphere.cursor-deeplink');
    expect(new URL(install.cursor.deeplink).pathname).toBe('/mcp/install');
    expect(new URL(install.cursor.web).origin + new URL(install.cursor.web).pathname).toBe(
      'https://cursor.com/en/install-mcp',
    );

    for (const [link, scheme] of [
      [install.vscode.link, 'vscode:'],
      [install.vscode.insidersLink, 'vscode-insiders:'],
    ] as const) {
      const parsed = new URL(link);
      expect([parsed.protocol, parsed.pathname]).toEqual([scheme, 'mcp/install']);
      expect(JSON.parse(decodeURIComponent(parsed.search.slice(1)))).toEqual({ name, type: 'http', url });
    }
  });

  it.each(IDS)('gives %s commands and config files that name its URL and name', (id) => {
    const install = installs.find((entry) => entry.id === id)!;
    const { name, url } = install;
    const [code, addMcp, server] = shellWords(install.vscode.command);
    expect([code, addMcp]).toEqual(['code', '--add-mcp']);
    expect(JSON.parse(server!)).toEqual({ name, type: 'http', url });
    expect(shellWords(install.claudeCode)).toEqual(['claude', 'mcp', 'add', '--transport', 'http', name, url]);
    expect(shellWords(install.codex.command)).toEqual(['codex', 'mcp', 'add', name, '--url', url]);
    expect(install.codex.toml).toBe(`[mcp_servers.${name}]\nurl = "${url}"\n`);
    expect(JSON.parse(install.windsurf)).toEqual({ mcpServers: { [name]: { serverUrl: url } } });
    expect(JSON.parse(install.generic)).toEqual({ mcpServers: { [name]: { type: 'http', url } } });
    for (const steps of [install.claudeSteps, install.chatgptSteps])
      expect(steps.filter((step) => step.includes(`\`${url}\``) && step.includes(`\`${name}\``))).toHaveLength(1);
  });
});

describe('connectPageUrl', () => {
  it("points at the server's own section of the Connect page", () => {
    expect(connectPageUrl('https://ada.example/portfolio', 'docs')).toBe(
      `https://ada.example/portfolio${CONNECT_PATH}#portfolio-docs`,
    );
  });
});

describe('shellWord', () => {
  it('leaves a URL as it is and quotes what a shell would split or expand', () => {
    expect(shellWord('https://ada.example:8443/a/mcp')).toBe('https://ada.example:8443/a/mcp');
    expect(shellWord('{"a": 1}')).toBe(`'{"a": 1}'`);
    expect(shellWords(`x ${shellWord("it's $HOME")}`)).toEqual(['x', "it's $HOME"]);
  });
});
