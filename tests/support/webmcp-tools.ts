import type { Page } from 'playwright-core';

/** What a WebMCP tool's execute resolves with: an MCP tool result. */
export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Calls a tool the page registered, the way the browser calls it for an agent. The tests' stand-in
 * for `modelContext` keeps what the page registers in `window.registeredTools`.
 */
export function callTool(page: Page, name: string, input: Record<string, unknown>): Promise<ToolResult> {
  return page.evaluate(
    async ({ name, input }) => {
      const tools = (window as unknown as { registeredTools: { name: string; execute: (input: unknown) => unknown }[] })
        .registeredTools;
      return (await tools.find((tool) => tool.name === name)!.execute(input)) as ToolResult;
    },
    { name, input },
  );
}
