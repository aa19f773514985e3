/** Loopback hosts: a page served from the owner's own machine (MCP Inspector, a local app). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Which browser origins may call the MCP servers. The Streamable HTTP transport must check Origin
 * against DNS rebinding (MCP specification, basic/transports, "Security Warning"): a request that
 * carries an Origin outside this list answers 403. Requests without Origin (agents, scripts, the
 * SDK's Node client) are not browser requests and are served.
 */
export function originPolicy(siteUrl: string, configured: readonly string[] | null): (origin: string) => boolean {
  if (configured !== null) {
    const allowed = new Set(configured);
    return (origin) => allowed.has(origin);
  }
  const siteOrigin = new URL(siteUrl).origin;
  return (origin) => {
    if (origin === siteOrigin) return true;
    try {
      const url = new URL(origin);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        LOOPBACK_HOSTS.has(url.hostname) &&
        url.origin === origin
      );
    } catch {
      return false;
    }
  };
}
