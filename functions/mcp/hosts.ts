import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import type { Config } from '../config/env.ts';

/** The prefix of the host name that selects sandbox mode (functions/http/request-context.ts). */
const SANDBOX_LABEL = 'sandbox.';
/** Accepted Host headers remembered per policy. */
const MAX_ACCEPTED_HOSTS = 64;
const ACCEPTED: HostVerdict = { ok: true };

/** Whether the service listens on a loopback interface only, so that only this machine reaches it by address. */
function bindsLoopback(bindHost: string): boolean {
  const host = bindHost.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The answer to one Host header: served, or refused with the reason a client is shown. */
export type HostVerdict = { ok: true } | { ok: false; message: string };

/**
 * Which Host headers the MCP servers answer (MCP transports, "Security Warning": against DNS
 * rebinding, a page of another site whose name resolves to this server names that site in Host).
 * Host names only, whatever the port, as the SDK's validateHostHeader compares them: a reverse
 * proxy passes the public name on without its port (nginx's `$host`, functions/hosts/nginx/site.ts).
 * Allowed: the SITE_URL host, the API_ORIGIN host (where the servers answer when the pages are
 * served elsewhere) and the BACKEND_ORIGIN host (a static host's proxy rules name it in the Host
 * they send, functions/hosts/static/proxy-target.ts), each with its `sandbox.` name, the configured extra names, and loopback
 * names when the service listens on loopback only (a browser that names localhost reached
 * localhost, which a rebinding page cannot make it do).
 */
export function hostPolicy(
  { siteUrl, apiOrigin, backendOrigin }: Pick<Config, 'siteUrl' | 'apiOrigin' | 'backendOrigin'>,
  bindHost: string,
  extra: readonly string[],
): (host: string | undefined) => HostVerdict {
  const own = [siteUrl, apiOrigin, backendOrigin].flatMap((url) => (url === null ? [] : [new URL(url).hostname]));
  const allowed = [
    ...own.flatMap((name) => [name, `${SANDBOX_LABEL}${name}`]),
    ...extra,
    ...(bindsLoopback(bindHost) ? localhostAllowedHostnames() : []),
  ];
  // Host headers already accepted, so that the next request with one costs a lookup instead of a
  // URL parse. Only accepted ones are kept, and only so many (one name takes a header per port).
  const accepted = new Set<string>();
  return (host) => {
    if (host !== undefined && accepted.has(host)) return ACCEPTED;
    const verdict = validateHostHeader(host ?? null, allowed);
    if (!verdict.ok) return { ok: false, message: verdict.message };
    if (host !== undefined && accepted.size < MAX_ACCEPTED_HOSTS) accepted.add(host);
    return ACCEPTED;
  };
}
