import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** MCP's code for a resource that does not exist (specification, server/resources, "Error Handling"). */
const RESOURCE_NOT_FOUND = -32002;

export function resourceNotFound(uri: URL, hint: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href}. ${hint}`, { uri: uri.href });
}
