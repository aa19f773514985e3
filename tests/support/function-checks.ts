import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { appViewFile } from '../../functions/hosts/static/build-output.ts';
import { appViewUri } from '../../functions/mcp/app-views.ts';
import { callTool, connectMcp, structured } from './mcp.ts';
import { sendModern } from './mcp-eras.ts';
import { ROOT } from './server.ts';

/**
 * What every host of the function must answer on `/mcp`: a 2025-era tools/call from the 1.x
 * client (through the SDK), then 2026-07-28's server/discover and tools/call (the plain path),
 * and an MCP Apps view read as the build made it (the bundle carries the views).
 */
export async function expectMcpInBothEras(baseUrl: string): Promise<void> {
  const legacy = await connectMcp(`${baseUrl}/mcp`);
  try {
    expect(structured(await callTool(legacy, 'sandbox_ping'))).toMatchObject({ pong: true });
    const view = await legacy.readResource({ uri: appViewUri('project-card') });
    expect(view.contents[0]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      text: readFileSync(appViewFile(path.join(ROOT, 'dist'), 'project-card'), 'utf8'),
    });
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
