// Where the MCP SDK's defaults do not fit servers built anew for each request, and the way around
// each; everything else about the servers' identity is in server-identity.ts.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { MCP_SERVER_VERSION, MCP_SERVERS, type McpServerId } from './server-identity.ts';

/**
 * The SDK's McpServer declares `listChanged: true` for resources and prompts as soon as the
 * first one is registered. That flag promises notifications/…/list_changed, which a stateless
 * server (a new one per request, no open stream) never sends, and SEP-2127 reads it as "this
 * list changes at run time", which ours do not. So it is withdrawn just before the server
 * connects, for initialize and the card alike (tools are registered without it, tool-registry.ts).
 */
class StatelessMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    if (this.answers('resources/list')) this.server.registerCapabilities({ resources: { listChanged: undefined } });
    if (this.answers('prompts/list')) this.server.registerCapabilities({ prompts: { listChanged: undefined } });
    return super.connect(transport);
  }

  /** Whether a handler for the method is installed (the SDK's only public way to ask: it throws if so). */
  private answers(method: string): boolean {
    try {
      this.server.assertCanSetRequestHandler(method);
      return false;
    } catch {
      return true;
    }
  }
}

/**
 * The SDK's Server makes a JSON Schema validator (a new Ajv) unless given one, and it is only
 * used for elicitation, which these servers never ask for. Built per request, that Ajv was the
 * largest cost of a tool call, so every server shares one, made with the first server.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** A new, empty server of the given kind, with its identity and instructions. */
export function newMcpServer(id: McpServerId, siteUrl: string, instructions: string): McpServer {
  const { name, title } = MCP_SERVERS[id];
  sharedValidator ??= new AjvJsonSchemaValidator();
  return new StatelessMcpServer(
    { name, title, version: MCP_SERVER_VERSION, websiteUrl: siteUrl },
    { instructions, jsonSchemaValidator: sharedValidator },
  );
}
