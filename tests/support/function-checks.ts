import { expect } from 'vitest';
import { callTool, connectMcp, structured } from './mcp.ts';
import { sendModern } from './mcp-eras.ts';

/**
 * What every host of the function must answer on `/mcp`: a 2025-era tools/call from the 1.x
 * client (through the SDK), then 2026-07-28's server/discover and tools/call (the plain path).
 */
export async function expectMcpInBothEras(baseUrl: string): Promise<void> {
  const legacy = await connectMcp(`${baseUrl}/mcp`);
  try {
    expect(structured(await callTool(legacy, 'sandbox_ping'))).toMatchObject({ pong: true });
  } finally {
    await legacy.close();
  }
  const discover = await sendModern(`${baseUrl}/mcp`, 1, 'server/discover', {}, {});
  expect(discover.body.result).toMatchObject({
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'portfolio' } },
  });
  const call = await sendModern(
    `${baseUrl}/mcp`,
    2,
    'tools/call',
    { name: 'sandbox_ping', arguments: {} },
    { 'mcp-name': 'sandbox_ping' },
  );
  expect(call.body.result).toMatchObject({ resultType: 'complete', structuredContent: { pong: true } });
}
