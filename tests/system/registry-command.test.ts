import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVariable } from '../../functions/config/read-variable.ts';
import { REGISTRY_AUTH_PATH, registryAuthDocument } from '../../functions/mcp/registry-auth.ts';
import { registryEntryJson } from '../../functions/mcp/registry-entry.ts';
import { MCP_SERVERS, registryEntryPath, type McpServerId } from '../../functions/mcp/server-identity.ts';
import { npmRun } from '../support/npm-run.ts';
import { ROOT } from '../support/server.ts';

// `npm run registry` as the owner runs it, a process of its own, on the built site (made for
// http://localhost:4321) and on a build folder made here for a real domain.
const IDS = Object.keys(MCP_SERVERS) as McpServerId[];
const LOCAL = { siteUrl: 'http://localhost:4321', apiOrigin: null };

const madeFolders: string[] = [];
afterAll(() => {
  for (const folder of madeFolders) rmSync(folder, { recursive: true, force: true });
});

/** A build folder for https://ada.example with a registry key: its manifest and the registry's files, as the build writes them. */
function domainBuild(publicKey: string, record = registryAuthDocument(publicKey)): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'registry-build-'));
  madeFolders.push(dist);
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'dist/build-manifest.json'), 'utf8')) as {
    environment: Record<string, string>;
  };
  manifest.environment = {
    ...manifest.environment,
    SITE_URL: 'https://ada.example',
    MCP_REGISTRY_PUBLIC_KEY: publicKey,
  };
  writeFileSync(path.join(dist, 'build-manifest.json'), JSON.stringify(manifest));
  const write = (urlPath: string, body: string) => {
    const file = path.join(dist, 'client', urlPath);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  };
  for (const id of IDS)
    write(registryEntryPath(id), registryEntryJson(id, { siteUrl: 'https://ada.example', apiOrigin: null }));
  write(REGISTRY_AUTH_PATH, record);
  return dist;
}

/** A key pair from `--new-key`, read from its output. */
async function newKey(): Promise<{ publicKey: string; privateKeyHex: string }> {
  const made = await npmRun('registry', {}, '--new-key');
  expect(made.code, made.stderr).toBe(0);
  const publicKey = /^ {2}MCP_REGISTRY_PUBLIC_KEY=(\S+)$/m.exec(made.stdout)?.[1];
  const privateKeyHex = /^ {2}([0-9a-f]{64})$/m.exec(made.stdout)?.[1];
  expect(publicKey, made.stdout).toBeDefined();
  expect(privateKeyHex, made.stdout).toBeDefined();
  return { publicKey: publicKey!, privateKeyHex: privateKeyHex! };
}

describe('npm run registry', () => {
  it('prints both server.json files the build serves, no record without a key, why the registry would refuse localhost, and the steps', async () => {
    const { code, stdout, stderr } = await npmRun('registry', {});
    expect(code, stderr).toBe(0);
    for (const id of IDS) {
      expect(stdout).toContain(
        `server.json of ${MCP_SERVERS[id].path}, at http://localhost:4321${registryEntryPath(id)}: served by the build`,
      );
      expect(stdout).toContain(registryEntryJson(id, LOCAL));
      expect(readFileSync(path.join(ROOT, 'dist/client', registryEntryPath(id)), 'utf8')).toBe(
        registryEntryJson(id, LOCAL),
      );
    }
    expect(stdout).toContain('MCP_REGISTRY_PUBLIC_KEY is not set');
    expect(stdout).toContain('The registry would refuse this site');
    expect(stdout).toContain('npm run registry -- --new-key');
    expect(stdout).toContain('mcp-publisher login http --domain localhost --private-key');
    expect(stdout).toContain('mcp-publisher publish dist/client/.well-known/mcp/server.json');
    expect(stdout).toContain('mcp-publisher publish dist/client/.well-known/mcp/docs/server.json');
  });

  it('--new-key makes a pair whose public half MCP_REGISTRY_PUBLIC_KEY accepts, and says where each half goes', async () => {
    const { publicKey, privateKeyHex } = await newKey();
    expect(readVariable({ MCP_REGISTRY_PUBLIC_KEY: publicKey }, 'MCP_REGISTRY_PUBLIC_KEY')).toBe(publicKey);
    expect(privateKeyHex).not.toContain(publicKey);
    const second = await newKey();
    expect(second.publicKey).not.toBe(publicKey);
  });

  it('for a domain build with a key: the record, each file served by the build, no refusal, and the login for that domain', async () => {
    const { publicKey } = await newKey();
    const dist = domainBuild(publicKey);
    const { code, stdout, stderr } = await npmRun('registry', {}, '--dist', dist);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`  v=MCPv1; k=ed25519; p=${publicKey}\n  served by the build`);
    for (const id of IDS)
      expect(stdout).toContain(`at https://ada.example${registryEntryPath(id)}: served by the build`);
    expect(stdout).not.toContain('would refuse');
    expect(stdout).toContain('HTTP verification of ada.example allows the names example.ada/*');
    expect(stdout).toContain('mcp-publisher login http --domain ada.example --private-key');

    // A build made with another key serves another record: the command says so.
    const stale = domainBuild(publicKey, registryAuthDocument((await newKey()).publicKey));
    expect((await npmRun('registry', {}, '--dist', stale)).stdout).toContain('the build serves other bytes');
  });

  it('refuses a key that is not an Ed25519 public key with one line, exit 1', async () => {
    const { code, stdout, stderr } = await npmRun('registry', { MCP_REGISTRY_PUBLIC_KEY: 'not-a-key' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^registry: .*MCP_REGISTRY_PUBLIC_KEY/)]);
  });
});
