import {
  INITIALIZED_METHOD,
  INITIALIZE_METHOD,
  LATEST_PROTOCOL_VERSION,
  OPEN_LINK_METHOD,
  RESOURCE_TEARDOWN_METHOD,
  SIZE_CHANGED_METHOD,
  TOOL_CANCELLED_METHOD,
  TOOL_INPUT_METHOD,
  TOOL_RESULT_METHOD,
} from '@modelcontextprotocol/ext-apps';
import { describe, expect, it } from 'vitest';
import { METHODS, PROTOCOL_VERSION } from '../../src/scripts/apps/host-bridge.ts';

// The views' hand-written bridge (src/scripts/apps/host-bridge.ts) spells the protocol as
// ext-apps' App does; that it also behaves as App does is tests/browser/mcp-apps.test.ts, against
// ext-apps' AppBridge.
describe('the MCP Apps views’ host bridge', () => {
  it('asks for the protocol version ext-apps speaks', () => {
    expect(PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('names each ui/ method as ext-apps does', () => {
    expect(METHODS).toMatchObject({
      initialize: INITIALIZE_METHOD,
      initialized: INITIALIZED_METHOD,
      toolInput: TOOL_INPUT_METHOD,
      toolResult: TOOL_RESULT_METHOD,
      toolCancelled: TOOL_CANCELLED_METHOD,
      resourceTeardown: RESOURCE_TEARDOWN_METHOD,
      openLink: OPEN_LINK_METHOD,
      sizeChanged: SIZE_CHANGED_METHOD,
    });
  });
});
