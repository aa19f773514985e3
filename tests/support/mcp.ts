import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { InProcessApi } from './api.ts';
import { errorSchema } from './schemas.ts';

/** An SDK client connected over real HTTP to one of the servers (`/mcp` or `/mcp/docs`). */
export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'portfolio-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Calls a tool and returns its result; the SDK client has already checked structuredContent against outputSchema. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text block of a result, parsed as JSON. */
function textJson(result: CallToolResult): unknown {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('The result has no text block');
  return JSON.parse(block.text) as unknown;
}

/** A successful result's structured content, checked to equal its text block. */
export function structured(result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`Tool failed: ${JSON.stringify(result.content)}`);
  if (result.structuredContent === undefined) throw new Error('No structuredContent');
  if (JSON.stringify(textJson(result)) !== JSON.stringify(result.structuredContent))
    throw new Error('Text and structuredContent differ');
  return result.structuredContent;
}

/** An error result's API error (Error shape; extra problem members allowed). */
export function toolError(result: CallToolResult) {
  if (!result.isError) throw new Error(`Expected an error, got ${JSON.stringify(result.structuredContent)}`);
  return errorSchema.passthrough().parse(textJson(result));
}

/** The product server's tools, in the order tools/list gives them (the same in every era and every list). */
export const PRODUCT_TOOL_NAMES = [
  'list_projects',
  'get_project',
  'search',
  'submit_contact',
  'create_job',
  'get_job',
  'sandbox_ping',
  'compare_projects',
];

/** A 2025-era tools/list to an in-process API, as a page on `origin` sends it to `host`. */
export function toolsListFrom(server: InProcessApi, origin: string, host: string, path = '/mcp') {
  return server.request({
    method: 'POST',
    path,
    headers: {
      host,
      origin,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}
