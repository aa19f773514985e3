// The view's side of the MCP Apps bridge, by hand: JSON-RPC 2.0 over postMessage with the host
// (window.parent), as the ext-apps specification (2026-01-26, "Communication Protocol") says a
// view may speak it without an SDK. ext-apps' App class speaks the same, but brings zod and the
// MCP SDK's Protocol (some 400 kB in every view, and the views ride in every function bundle).
// What goes on the wire is what App sends: the same methods, protocol version, request ids from
// 0, answers to the host's ping and ui/resource-teardown, -32601 to any other request, size
// changes measured as its autoResize measures them. tests/unit/host-bridge.test.ts holds the
// names to ext-apps' own; tests/browser/mcp-apps.test.ts runs the views against its AppBridge.

/** The protocol version the view asks for in ui/initialize (ext-apps' LATEST_PROTOCOL_VERSION). */
export const PROTOCOL_VERSION = '2026-01-26';

/** The methods the view sends or answers (ext-apps' *_METHOD constants, and MCP's own). */
export const METHODS = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  toolInput: 'ui/notifications/tool-input',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  resourceTeardown: 'ui/resource-teardown',
  openLink: 'ui/open-link',
  sizeChanged: 'ui/notifications/size-changed',
  callTool: 'tools/call',
  ping: 'ping',
  cancelled: 'notifications/cancelled',
} as const;

/** How long the view waits for an answer before it gives up and cancels (the SDK's default). */
const REQUEST_TIMEOUT_MS = 60_000;

type RequestId = string | number;

interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: RequestId;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A tool result as the host sends it (MCP CallToolResult; only what the views read). */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content?: readonly { type: string; text?: string }[];
}

/** What a view does with what the host sends it; each may be left out. */
export interface ViewHandlers {
  /** The tool call's complete arguments (ui/notifications/tool-input). */
  toolInput?: (args: Record<string, unknown>) => void;
  /** The tool call's result (ui/notifications/tool-result). */
  toolResult?: (result: ToolResult) => void;
  /** The tool call was cancelled, with the host's reason if it gave one. */
  toolCancelled?: (reason: string | undefined) => void;
}

/** The host, as a view uses it once the handshake is done (requests wait for it). */
export interface HostBridge {
  /** Calls a tool of the view's server through the host (what App.callServerTool does). */
  callServerTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Asks the host to open a link (a sandboxed view may not navigate). */
  openLink(url: string): Promise<void>;
}

/**
 * Connects the view to its host: listens to the host's messages, sends ui/initialize, then
 * ui/notifications/initialized, then reports the document's size whenever it changes.
 */
export function connectToHost(appInfo: { name: string; version: string }, handlers: ViewHandlers): HostBridge {
  const host = window.parent;
  const send = (message: Omit<JsonRpcMessage, 'jsonrpc'>) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const waiting = new Map<RequestId, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;

  function request<Result>(method: string, params: Record<string, unknown>): Promise<Result> {
    const id = nextId++;
    return new Promise<Result>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        send({ method: METHODS.cancelled, params: { requestId: id, reason: 'Request timed out' } });
        reject(new Error(`The host did not answer ${method}`));
      }, REQUEST_TIMEOUT_MS);
      const settle = () => {
        clearTimeout(timer);
        waiting.delete(id);
      };
      waiting.set(id, {
        resolve: (result) => (settle(), resolve(result as Result)),
        reject: (error) => (settle(), reject(error)),
      });
      send({ id, method, params });
    });
  }

  /** The host's requests the view answers; an empty result is all either asks for. */
  const answers: Record<string, () => object> = {
    [METHODS.ping]: () => ({}),
    // Nothing to save before the frame goes: every message is sent as soon as it is made.
    [METHODS.resourceTeardown]: () => ({}),
  };
  const notifications: Record<string, (params: Record<string, unknown>) => void> = {
    [METHODS.toolInput]: (params) => handlers.toolInput?.((params.arguments ?? {}) as Record<string, unknown>),
    [METHODS.toolResult]: (params) => handlers.toolResult?.(params as ToolResult),
    [METHODS.toolCancelled]: (params) =>
      handlers.toolCancelled?.(typeof params.reason === 'string' ? params.reason : undefined),
  };

  window.addEventListener('message', (event: MessageEvent<JsonRpcMessage | null>) => {
    const message = event.data;
    // Only the host speaks to the view (App's transport also listens to window.parent alone).
    if (event.source !== host || message?.jsonrpc !== '2.0') return;
    const { id, method } = message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (method !== undefined && id !== undefined) {
      const answer = answers[method];
      send(answer ? { id, result: answer() } : { id, error: { code: -32601, message: 'Method not found' } });
    } else if (method !== undefined) notifications[method]?.(params);
    else if (id !== undefined) {
      const pending = waiting.get(id);
      if (message.error !== undefined) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result);
    }
  });

  const ready = request(METHODS.initialize, {
    appCapabilities: {},
    appInfo,
    protocolVersion: PROTOCOL_VERSION,
  }).then(() => {
    send({ method: METHODS.initialized });
    reportSize(send);
  });
  ready.catch((error: unknown) => console.error('The MCP Apps host did not answer ui/initialize', error));

  return {
    callServerTool: (name, args) => ready.then(() => request<ToolResult>(METHODS.callTool, { name, arguments: args })),
    openLink: (url) => ready.then(() => request<object>(METHODS.openLink, { url })).then(() => undefined),
  };
}

/**
 * Tells the host the document's size now and whenever it changes, so that the host sizes the
 * frame to it: once per frame at most, and only a changed size (App's autoResize, measured the
 * same way: the root's height as `max-content`, the window's width).
 */
function reportSize(send: (message: Omit<JsonRpcMessage, 'jsonrpc'>) => void): void {
  let scheduled = false;
  let last = { width: 0, height: 0 };
  const measure = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      const root = document.documentElement;
      const height = root.style.height;
      root.style.height = 'max-content';
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      root.style.height = height;
      if (size.width === last.width && size.height === last.height) return;
      last = size;
      send({ method: METHODS.sizeChanged, params: size });
    });
  };
  measure();
  const observer = new ResizeObserver(measure);
  observer.observe(document.documentElement);
  observer.observe(document.body);
}
