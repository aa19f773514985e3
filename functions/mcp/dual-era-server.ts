// How both MCP servers are made anew for each request of either protocol era (the 2025 era and
// 2026-07-28, functions/mcp/era-endpoint.ts): their identity, cache hints that follow a build,
// one schema validator for all, and the capabilities they withdraw.
import { McpServer, type Implementation } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { siteIcons } from '../site/site-icons.ts';
import { LEGACY_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { MCP_SERVER_VERSION, MCP_SERVERS, type McpServerId } from './server-identity.ts';

/**
 * How long a client may keep a list or a read (2026-07-28, CacheableResult): the tools, the
 * pages, the projects, the prompt and the card change only with a new build, and are the same
 * for every caller, so any cache may keep them for a while; a deploy is then seen within this
 * time. 2025-era answers never carry hints.
 */
const UNTIL_A_DEPLOY_MS = 5 * 60 * 1000;
const BUILD_CONTENT = { ttlMs: UNTIL_A_DEPLOY_MS, cacheScope: 'public' } as const;

/**
 * The SDK's Server makes a JSON Schema validator (a new Ajv) unless given one, and it is only
 * used for elicitation, which these servers never ask for. Built per request, that Ajv was the
 * largest cost of a tool call, so every server shares one, made with the first server.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * Who a server of the given kind says it is (`serverInfo`, in 2026-07-28 on every result), with
 * the site icon in every size (MCP 2025-11-25, `Implementation.icons`), as its cards list it.
 */
export function serverIdentity(id: McpServerId, siteUrl: string): Implementation {
  const { name, title } = MCP_SERVERS[id];
  return { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl, icons: siteIcons(siteUrl) };
}

/**
 * A new, empty server of the given kind, with its identity, instructions and cache hints, serving
 * the published 2025-era versions (the SDK adds the 2026-07-28 revision when it serves that era).
 */
export function newDualEraServer(id: McpServerId, siteUrl: string, instructions: string): McpServer {
  sharedValidator ??= new AjvJsonSchemaValidator();
  return new McpServer(serverIdentity(id, siteUrl), {
    instructions,
    supportedProtocolVersions: [...LEGACY_PROTOCOL_VERSIONS],
    jsonSchemaValidator: sharedValidator,
    cacheHints: {
      'tools/list': BUILD_CONTENT,
      'resources/list': BUILD_CONTENT,
      'resources/templates/list': BUILD_CONTENT,
      'prompts/list': BUILD_CONTENT,
      'resources/read': BUILD_CONTENT,
      'server/discover': BUILD_CONTENT,
    },
  });
}

/**
 * The SDK declares `listChanged: true` for tools, resources and prompts with the first
 * registration. It promises list_changed notifications (on subscriptions/listen in 2026-07-28,
 * on a stream in 2025, which a server built per request never keeps), and a client reads it as
 * "this list changes at run time", which these do not: they change only with a build. So it is
 * withdrawn once everything is registered, for initialize and server/discover alike.
 */
export function withdrawListChanged(server: McpServer): void {
  const declared = server.server.getCapabilities();
  for (const kind of ['tools', 'resources', 'prompts'] as const)
    if (declared[kind] !== undefined) server.server.registerCapabilities({ [kind]: { listChanged: undefined } });
}
