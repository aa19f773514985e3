import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../functions/config/env.ts';
import { readVariable } from '../../functions/config/read-variable.ts';
import { builtFileHeaders } from '../../functions/hosts/static/built-file-headers.ts';
import {
  REGISTRY_AUTH_PATH,
  registryAuthDocument,
  registryNamespace,
  registryRefusals,
} from '../../functions/mcp/registry-auth.ts';
import {
  REGISTRY_DOCUMENT_PATHS,
  registryEntry,
  registryEntryJson,
  SERVER_JSON_SCHEMA,
} from '../../functions/mcp/registry-entry.ts';
import { listedIdentity, MCP_SERVERS, type McpServerId } from '../../functions/mcp/server-identity.ts';
import { newRegistryKeyPair } from '../../scripts/registry-key.ts';
import { ROOT } from '../support/server.ts';

/** The registry's published server.json schema, vendored (tests/fixtures/discovery-schemas/README.md). */
const schema = JSON.parse(
  readFileSync(path.join(ROOT, 'tests/fixtures/discovery-schemas/server.schema.json'), 'utf8'),
) as Record<string, unknown>;
const validate = new AjvJsonSchemaValidator().getValidator(schema);

const IDS = Object.keys(MCP_SERVERS) as McpServerId[];
// A real domain (what the registry verifies), the API on its own origin, and localhost as tests build it.
const SITES = [
  { siteUrl: 'https://ada.example', apiOrigin: null },
  { siteUrl: 'https://portfolio.ada.example', apiOrigin: 'https://api.ada.example' },
  { siteUrl: 'http://localhost:4321', apiOrigin: null },
];

/**
 * What HTTP verification of a domain lets a publisher publish (modelcontextprotocol/registry,
 * internal/api/handlers/v0/auth/common.go BuildPermissions with includeSubdomains false): exactly
 * `<reversed domain>/*`.
 */
function allowedByHttpVerification(name: string, domain: string): boolean {
  const namespace = domain.split('.').reverse().join('.');
  return name.startsWith(`${namespace}/`) && !name.slice(namespace.length + 1).includes('/');
}

describe('registryEntry (server.json)', () => {
  it('names the schema it follows, and that schema is the vendored file', () => {
    expect(schema.$id).toBe(SERVER_JSON_SCHEMA);
    for (const id of IDS) expect(registryEntry(id, SITES[0]!).$schema).toBe(SERVER_JSON_SCHEMA);
  });

  it.each(SITES)('is valid for the registry schema for $siteUrl, both servers', (origins) => {
    for (const id of IDS) {
      const entry = JSON.parse(registryEntryJson(id, origins)) as unknown;
      expect(validate(entry).errorMessage, `${id} ${origins.siteUrl}`).toBeUndefined();
    }
  });

  it('is named under the site domain as HTTP verification of that domain allows, one name per server', () => {
    for (const origins of SITES) {
      const domain = new URL(origins.siteUrl).hostname;
      const names = IDS.map((id) => registryEntry(id, origins).name);
      expect(new Set(names).size).toBe(IDS.length);
      for (const name of names) {
        expect(allowedByHttpVerification(name, domain), name).toBe(true);
        expect(name.startsWith(`${registryNamespace(origins.siteUrl)}/`)).toBe(true);
      }
    }
    expect(registryEntry('product', SITES[1]!).name).toBe('example.ada.portfolio/portfolio');
    expect(registryEntry('docs', SITES[1]!).name).toBe('example.ada.portfolio/portfolio-docs');
    // A name under the parent domain would need DNS verification (subdomains), not HTTP.
    expect(allowedByHttpVerification('example.ada/portfolio', 'portfolio.ada.example')).toBe(false);
  });

  it('says what the server card says: the same identity, icons and endpoint, the endpoint by absolute URL', () => {
    const origins = SITES[1]!;
    for (const id of IDS) {
      const identity = listedIdentity(id, origins);
      const entry = registryEntry(id, origins);
      expect(entry).toEqual({
        $schema: SERVER_JSON_SCHEMA,
        name: identity.name,
        title: identity.title,
        description: identity.description,
        version: identity.version,
        websiteUrl: 'https://portfolio.ada.example',
        icons: identity.icons,
        remotes: [{ type: 'streamable-http', url: `https://api.ada.example${MCP_SERVERS[id].path}` }],
      });
      expect(entry.icons.map((icon) => [icon.src, icon.sizes])).toEqual(
        [48, 96, 192, 512].map((size) => [`https://portfolio.ada.example/icons/icon-${size}.png`, [`${size}x${size}`]]),
      );
    }
  });
});

describe('registryRefusals', () => {
  it('accepts an https site at the root of a domain', () => {
    expect(registryRefusals('https://ada.example')).toEqual([]);
    expect(registryRefusals('https://portfolio.ada.example')).toEqual([]);
  });

  it('names each reason the registry would refuse: http, localhost, an IP, a port, a path', () => {
    expect(registryRefusals('http://localhost:4321')).toEqual([
      expect.stringContaining('not https'),
      expect.stringContaining('localhost'),
      expect.stringContaining('port (4321)'),
    ]);
    expect(registryRefusals('https://192.0.2.7')).toEqual([expect.stringContaining('IP address')]);
    expect(registryRefusals('https://ada.example/portfolio')).toEqual([expect.stringContaining('path (/portfolio)')]);
  });
});

describe('the verification record (/.well-known/mcp-registry-auth)', () => {
  /** The registry's reading of a record (auth/common.go ParseMCPKeysFromStrings), the whole line. */
  const PROOF_RECORD = /^v=MCPv1;\s*k=([^;]+);\s*p=([A-Za-z0-9+/=]+)$/;

  it('is one line the registry reads, with a key that verifies what the private half signs', () => {
    const pair = newRegistryKeyPair();
    const record = registryAuthDocument(pair.publicKey);
    expect(record.endsWith('\n')).toBe(true);
    expect(record.trimEnd().split('\n')).toHaveLength(1);
    const [, algorithm, key] = PROOF_RECORD.exec(record.trimEnd())!;
    expect(algorithm).toBe('ed25519');
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(pair.privateKeyHex).toMatch(/^[0-9a-f]{64}$/);

    // mcp-publisher signs a timestamp with the 32-byte private key; the registry checks it with p=.
    const pkcs8 = Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      Buffer.from(pair.privateKeyHex, 'hex'),
    ]);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(key!, 'base64')]);
    const message = Buffer.from(new Date().toISOString());
    const signature = sign(null, message, createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
    expect(verify(null, message, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature)).toBe(true);
  });

  it('is served as text/plain, and it and both entries to every origin, by every host of the build', () => {
    expect(REGISTRY_DOCUMENT_PATHS).toEqual([
      '/.well-known/mcp/server.json',
      '/.well-known/mcp/docs/server.json',
      REGISTRY_AUTH_PATH,
    ]);
    const { paths } = builtFileHeaders(REGISTRY_DOCUMENT_PATHS, SITES[0]!);
    for (const urlPath of REGISTRY_DOCUMENT_PATHS) {
      const headers = paths.get(urlPath)!.headers;
      expect(headers['access-control-allow-origin'], urlPath).toBe('*');
      expect(headers['content-type'], urlPath).toBe(
        urlPath === REGISTRY_AUTH_PATH ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
      );
    }
  });

  it('takes MCP_REGISTRY_PUBLIC_KEY only as the base64 of 32 bytes, and nothing when it is empty', () => {
    const { publicKey } = newRegistryKeyPair();
    expect(readVariable({ MCP_REGISTRY_PUBLIC_KEY: publicKey }, 'MCP_REGISTRY_PUBLIC_KEY')).toBe(publicKey);
    expect(readVariable({}, 'MCP_REGISTRY_PUBLIC_KEY')).toBeNull();
    for (const bad of ['abc', publicKey.slice(1), `${publicKey.slice(0, -2)}==`, newRegistryKeyPair().privateKeyHex])
      expect(() => readVariable({ MCP_REGISTRY_PUBLIC_KEY: bad }, 'MCP_REGISTRY_PUBLIC_KEY'), bad).toThrow(ConfigError);
  });
});
