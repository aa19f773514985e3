import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { withBuiltValues } from '../functions/config/baked-config.ts';
import { ConfigError, loadConfig, type Env } from '../functions/config/env.ts';
import { readVariable } from '../functions/config/read-variable.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../functions/hosts/static/build-manifest.ts';
import {
  REGISTRY_AUTH_PATH,
  registryAuthDocument,
  registryDomain,
  registryNamespace,
  registryRefusals,
} from '../functions/mcp/registry-auth.ts';
import { registryEntryJson } from '../functions/mcp/registry-entry.ts';
import { MCP_SERVERS, registryEntryPath, type McpServerId } from '../functions/mcp/server-identity.ts';
import { CHECKOUT, failOwnerCommand, ownerOptions } from './owner-command.ts';
import { newRegistryKeyPair } from './registry-key.ts';

const USAGE = `Usage: npm run registry [-- --dist <folder>] [-- --new-key]

Prints what this site would publish to the MCP Registry (one server.json per MCP server), the
domain-verification record the registry reads (${REGISTRY_AUTH_PATH}), whether the build in
<folder> (default: dist) serves each, and the mcp-publisher commands that publish them. Makes no
network call. The values are the build's (its ${BUILD_MANIFEST_FILE}), else this environment's.

  --new-key   make an Ed25519 key pair and say which half goes where`;

const options = ownerOptions(USAGE, { dist: { type: 'string', default: 'dist' }, 'new-key': { type: 'boolean' } });

/** The key pair, and where each half goes. */
function printNewKey(): void {
  const { publicKey, privateKeyHex } = newRegistryKeyPair();
  process.stdout.write(
    [
      'A new Ed25519 key pair for the MCP Registry.',
      '',
      'Public half: set it where the site is built (an environment variable, .dev.vars or your host',
      `settings), then build and deploy: the build publishes ${REGISTRY_AUTH_PATH} with it.`,
      `  MCP_REGISTRY_PUBLIC_KEY=${publicKey}`,
      '',
      'Private half: keep it secret and out of the repository and the site; only mcp-publisher needs it,',
      'once per login (mcp-publisher login http --private-key <it>).',
      `  ${privateKeyHex}`,
      '',
    ].join('\n'),
  );
}

/** What the build was made with when there is one: its recorded values fill what this environment leaves unset. */
function publishedEnvironment(dist: string): { env: Env; from: string } {
  const manifestFile = path.join(dist, BUILD_MANIFEST_FILE);
  if (!existsSync(manifestFile)) return { env: process.env, from: 'this environment (no build found)' };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
  return { env: withBuiltValues(manifest.environment, process.env), from: `the build of ${manifest.builtAt}` };
}

/** Whether the build serves `urlPath` with exactly `expected`, in words. */
function servedByBuild(dist: string, urlPath: string, expected: string): string {
  const file = path.join(dist, 'client', urlPath);
  if (!existsSync(file)) return `not in the build (${path.relative(CHECKOUT, file)} is missing: npm run build)`;
  return readFileSync(file, 'utf8') === expected
    ? `served by the build (${path.relative(CHECKOUT, file)})`
    : `the build serves other bytes at ${urlPath}: rebuild with these values`;
}

function printPublication(dist: string): void {
  const { env, from } = publishedEnvironment(dist);
  const config = loadConfig(env);
  const publicKey = readVariable(env, 'MCP_REGISTRY_PUBLIC_KEY');
  const domain = registryDomain(config.siteUrl);
  const out: string[] = [`MCP Registry publication for ${config.siteUrl} (values from ${from})`, ''];
  const ids = Object.keys(MCP_SERVERS) as McpServerId[];
  for (const id of ids) {
    const entry = registryEntryJson(id, config);
    out.push(
      `server.json of ${MCP_SERVERS[id].path}, at ${config.siteUrl}${registryEntryPath(id)}: ${servedByBuild(dist, registryEntryPath(id), entry)}`,
    );
    out.push(entry);
  }
  out.push(`Domain verification (${config.siteUrl}${REGISTRY_AUTH_PATH}):`);
  if (publicKey === null) {
    out.push('  none: MCP_REGISTRY_PUBLIC_KEY is not set, so the build publishes no record.', '');
  } else {
    const record = registryAuthDocument(publicKey);
    out.push(`  ${record.trimEnd()}`, `  ${servedByBuild(dist, REGISTRY_AUTH_PATH, record)}`, '');
  }
  const refusals = registryRefusals(config.siteUrl);
  if (refusals.length > 0)
    out.push('The registry would refuse this site as it is configured:', ...refusals.map((line) => `  - ${line}`), '');
  const entryFiles = ids.map((id) => path.relative(CHECKOUT, path.join(dist, 'client', registryEntryPath(id))));
  out.push(
    `Steps (HTTP verification of ${domain} allows the names ${registryNamespace(config.siteUrl)}/*):`,
    ...(publicKey === null
      ? ['  1. npm run registry -- --new-key, and set MCP_REGISTRY_PUBLIC_KEY where the site is built']
      : ['  1. MCP_REGISTRY_PUBLIC_KEY is set']),
    `  2. npm run build, deploy, and check that https://${domain}${REGISTRY_AUTH_PATH} answers with the record above`,
    '  3. install mcp-publisher (github.com/modelcontextprotocol/registry, its releases), then:',
    `       mcp-publisher login http --domain ${domain} --private-key <the private key's 64 hex characters>`,
    ...entryFiles.map((file) => `       mcp-publisher publish ${file}`),
    '',
  );
  process.stdout.write(out.join('\n'));
}

try {
  if (options['new-key'] === true) printNewKey();
  else printPublication(path.resolve(options.dist));
} catch (error) {
  if (error instanceof ConfigError) failOwnerCommand('registry', error);
  throw error;
}
