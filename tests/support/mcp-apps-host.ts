// A minimal MCP Apps host, run in Chromium by tests/browser/mcp-apps.test.ts (bundled there with
// esbuild): a real MCP client connected to the page's own origin's /mcp, announcing the
// io.modelcontextprotocol/ui extension, and for each tool call the view the tool names, read
// over MCP and shown in a sandboxed iframe (scripts, forms, an opaque origin, the CSP the
// resource declares) through ext-apps' AppBridge, as the reference host
// (ext-apps examples/basic-host) does.
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

/**
 * The policy a host puts on a view (ext-apps specification, "Content Security Policy"): nothing
 * beyond inline script and style and data: images unless the resource names domains.
 */
function policyOf(csp: McpUiResourceCsp | undefined): string {
  const connect = (csp?.connectDomains ?? []).join(' ') || "'none'";
  const resources = (csp?.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `connect-src ${connect}`,
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

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
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.title = uri;
  iframe.style.border = ui?.prefersBorder ? '1px solid #d8dee4' : '0';
  document.body.replaceChildren(iframe);
  const bridge = new AppBridge(mcp, HOST, { openLinks: {}, serverTools: {} });
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  const window_ = iframe.contentWindow;
  if (window_ === null) throw new Error('The iframe has no window');
  await bridge.connect(new PostMessageTransport(window_, window_));
  // Record what the view asks the server for, and forward it as the bridge would on its own.
  bridge.oncalltool = async (params) => {
    forwardedCalls.push(params.name);
    return (await mcp.callTool(params)) as CallToolResult;
  };
  iframe.srcdoc = content.text.replace(
    '<head>',
    `<head><meta http-equiv="Content-Security-Policy" content="${policyOf(ui?.csp)}">`,
  );
  await initialized;
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

Object.assign(globalThis, { showTool, forwardedCalls });
