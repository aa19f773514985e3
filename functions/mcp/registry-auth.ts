/**
 * The MCP Registry's HTTP domain verification (modelcontextprotocol/registry,
 * docs/modelcontextprotocol-io/authentication.mdx, "HTTP Authentication"): the registry fetches
 * `https://<domain>/.well-known/mcp-registry-auth` (no redirects followed) and reads a proof record
 * `v=MCPv1; k=<algorithm>; p=<base64 public key>` from it
 * (internal/api/handlers/v0/auth/common.go ParseMCPKeysFromStrings). A publisher who signs with the
 * private half is then allowed to publish under `<reversed domain>/*`: that domain only, not its
 * subdomains (auth/http.go, `allowSubdomains := false`; DNS verification allows them).
 */
export const REGISTRY_AUTH_PATH = '/.well-known/mcp-registry-auth';

/** The record's media type: the registry asks for it with `Accept: text/plain`. */
export const REGISTRY_AUTH_MEDIA_TYPE = 'text/plain; charset=utf-8';

/** The proof record for an Ed25519 public key given as base64 (MCP_REGISTRY_PUBLIC_KEY, checked as it is read), one line. */
export function registryAuthDocument(publicKey: string): string {
  return `v=MCPv1; k=ed25519; p=${publicKey}\n`;
}

/** The domain the registry verifies for a site: its host name, which HTTP verification takes without a port. */
export function registryDomain(siteUrl: string): string {
  return new URL(siteUrl).hostname;
}

/** `ada.example` -> `example.ada`: the namespace HTTP verification of that domain allows. */
export function registryNamespace(siteUrl: string): string {
  return registryDomain(siteUrl).split('.').reverse().join('.');
}

/**
 * Why the registry would refuse to verify this site or publish its entries, one sentence each;
 * none for a site it accepts. HTTP verification fetches the record over https at the domain's
 * root (auth/http.go FetchKey), a domain must be a DNS name (auth/common.go IsValidDomain), and a
 * remote or icon must not be on localhost and must use https (internal/validators/utils.go
 * IsValidRemoteURL, validators.go validateIcon and validateWebsiteURL).
 */
export function registryRefusals(siteUrl: string): string[] {
  const url = new URL(siteUrl);
  const refusals: string[] = [];
  if (url.protocol !== 'https:') refusals.push(`SITE_URL ${siteUrl} is not https: the registry requires https URLs.`);
  if (url.hostname === 'localhost' || url.hostname.endsWith('.localhost'))
    refusals.push('SITE_URL is on localhost: the registry refuses remotes there and cannot reach it.');
  else if (!/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)+$/.test(url.hostname))
    refusals.push(`${url.hostname} is not a domain name the registry can verify.`);
  else if (/^[\d.]+$/.test(url.hostname)) refusals.push(`${url.hostname} is an IP address, not a domain name.`);
  if (url.port !== '')
    refusals.push(`SITE_URL has a port (${url.port}): the registry fetches ${REGISTRY_AUTH_PATH} on port 443.`);
  if (url.pathname !== '/')
    refusals.push(
      `SITE_URL has a path (${url.pathname}): the registry fetches ${REGISTRY_AUTH_PATH} at the domain's root, outside this site.`,
    );
  return refusals;
}
