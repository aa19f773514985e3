// The sandbox proxy of the MCP Apps test host (tests/support/mcp-apps-host.ts), served on an
// origin of its own: the outer frame of the double-iframe sandbox the ext-apps specification
// describes ("Sandbox proxy"). It tells the host it is ready, puts the view the host then sends
// into an inner iframe (sandboxed, with the CSP made from the resource's `_meta.ui.csp`), and
// relays every other message between the host and the view.
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

const READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';

/**
 * The policy a host puts on a view: nothing beyond inline script and style and data: images,
 * unless the resource names domains (McpUiResourceCsp).
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

interface ResourceReady {
  html: string;
  sandbox?: string;
  csp?: McpUiResourceCsp;
}

const inner = document.createElement('iframe');
inner.style.cssText = 'border:0;width:100%;height:100%;display:block';

window.addEventListener('message', (event: MessageEvent<{ method?: string; params?: ResourceReady }>) => {
  if (event.source === window.parent) {
    if (event.data?.method === RESOURCE_READY && event.data.params !== undefined) {
      const { html, sandbox, csp } = event.data.params;
      inner.setAttribute('sandbox', sandbox ?? 'allow-scripts allow-forms');
      inner.srcdoc = html.replace(
        '<head>',
        `<head><meta http-equiv="Content-Security-Policy" content="${policyOf(csp)}">`,
      );
      document.body.replaceChildren(inner);
    } else inner.contentWindow?.postMessage(event.data, '*');
  } else if (event.source === inner.contentWindow) window.parent.postMessage(event.data, '*');
});
window.parent.postMessage({ jsonrpc: '2.0', method: READY, params: {} }, '*');
