// A minimal MCP Apps host, run in Chromium by tests/browser/mcp-apps.test.ts (bundled there with
// esbuild): a real MCP client connected to the page's own origin's /mcp, announcing the
// io.modelcontextprotocol/ui extension, and for each tool call the view the tool names, read
// over MCP and shown through ext-apps' AppBridge in the double-iframe sandbox of the reference
// host (ext-apps examples/basic-host): the sandbox proxy (./mcp-apps-sandbox.ts) on another
// origin, and in it the view in a sandboxed iframe with the CSP the resource declares.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  type McpUiResourceCsp,
} from '@modelcontextprotocol/ext-apps/app-bridge';

const EXTENSION_ID = 'io.modelcontextprotocol/ui';
const HOST = { name: 'portfolio-apps-harness', version: '1.0.0' };

/** The sandbox proxy's page: another origin than the host's (localhost, where the host is 127.0.0.1). */
declare const SANDBOX_URL: string;

/** What the test reads back after a view was shown. */
interface Shown {
  uri: string;
  mimeType: string | undefined;
  csp: McpUiResourceCsp | undefined;
  prefersBorder: boolean | undefined;
  htmlBytes: number;
}

/** The tools/call requests views sent the server through this host, by tool name. */
const forwardedCalls: string[] = [];
/** The links views asked this host to open (ui/open-link); a host would open them in a tab. */
const openedLinks: string[] = [];
/** The sizes the view reported (ui/notifications/size-changed), each of which this host gave its frame. */
const reportedSizes: { width?: number; height?: number }[] = [];

/** The bridge to the view shown last, for the host's own requests to it. */
let shownBridge: AppBridge | undefined;

let connected: Promise<Client> | undefined;

function client(): Promise<Client> {
  connected ??= (async () => {
    const made = new Client(HOST, {
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    });
    await made.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.origin)));
    return made;
  })();
  return connected;
}

/**
 * Shows the view of tool `name` and sends it the call's input, and (with `call`) the result of
 * calling the tool; without it the view waits for a person (the contact form).
 */
async function showTool(name: string, args: Record<string, unknown>, call: boolean): Promise<Shown> {
  const mcp = await client();
  const { tools } = await mcp.listTools();
  const tool = tools.find((candidate) => candidate.name === name);
  const uri = tool === undefined ? undefined : getToolUiResourceUri(tool);
  if (uri === undefined) throw new Error(`Tool ${name} names no view`);
  const { contents } = await mcp.readResource({ uri });
  const content = contents[0];
  if (content === undefined || !('text' in content)) throw new Error(`${uri} has no text`);
  const ui = (content._meta as { ui?: { csp?: McpUiResourceCsp; prefersBorder?: boolean } } | undefined)?.ui;

  const iframe = document.createElement('iframe');
  // The proxy's own sandbox: scripts, and its origin, so that it can make the inner frame.
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  iframe.title = uri;
  iframe.style.border = ui?.prefersBorder ? '1px solid #d8dee4' : '0';
  document.body.replaceChildren(iframe);
  const bridge = new AppBridge(mcp, HOST, { openLinks: {}, serverTools: {} });
  bridge.onsizechange = ({ width, height }) => {
    reportedSizes.push({ width, height });
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: content.text, sandbox: 'allow-scripts allow-forms', csp: ui?.csp });
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  const proxy = iframe.contentWindow;
  if (proxy === null) throw new Error('The iframe has no window');
  await bridge.connect(new PostMessageTransport(proxy, proxy));
  // Record what the view asks the server for, and forward it as the bridge would on its own.
  bridge.oncalltool = async (params) => {
    forwardedCalls.push(params.name);
    return (await mcp.callTool(params)) as CallToolResult;
  };
  bridge.onopenlink = ({ url }) => {
    openedLinks.push(url);
    return Promise.resolve({});
  };
  iframe.src = SANDBOX_URL;
  await initialized;
  shownBridge = bridge;
  await bridge.sendToolInput({ arguments: args });
  if (call) await bridge.sendToolResult((await mcp.callTool({ name, arguments: args })) as CallToolResult);
  return {
    uri,
    mimeType: content.mimeType,
    csp: ui?.csp,
    prefersBorder: ui?.prefersBorder,
    htmlBytes: new TextEncoder().encode(content.text).length,
  };
}

/** What the view answered a request of the host: its result, or its JSON-RPC error's code. */
type Answer = { result: unknown } | { errorCode: unknown };

/**
 * The host's requests to the view shown last, as the host sends them, and how the view answered
 * each: a ping, the list of tools it offers (it offers none), and the teardown a host sends
 * before it removes the frame, which it should wait for (ext-apps specification, "Cleanup").
 */
async function askView(): Promise<Record<'ping' | 'toolsList' | 'teardown', Answer>> {
  const bridge = shownBridge;
  if (bridge === undefined) throw new Error('No view is shown');
  const answer = (sent: Promise<unknown>): Promise<Answer> =>
    sent.then(
      (result) => ({ result }),
      (error: { code?: unknown }) => ({ errorCode: error.code }),
    );
  return {
    ping: await answer(bridge.request({ method: 'ping' })),
    toolsList: await answer(bridge.listTools({})),
    teardown: await answer(bridge.teardownResource({})),
  };
}

/** Tells the view shown last that its tool call was cancelled (ui/notifications/tool-cancelled). */
async function cancelTool(reason: string): Promise<void> {
  if (shownBridge === undefined) throw new Error('No view is shown');
  await shownBridge.sendToolCancelled({ reason });
}

Object.assign(globalThis, { showTool, askView, cancelTool, forwardedCalls, openedLinks, reportedSizes });
