/**
 * The client address of a request. Without trusted proxies it is the socket's peer address.
 * With `trustedProxies` = n, the n right-most X-Forwarded-For entries were written by our own
 * proxies, so the client is the entry just left of them (RFC 7239 section 5.2 reasoning, applied
 * to X-Forwarded-For); entries further left were written by the client and are never believed.
 */
export function clientIpOf(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: number,
): string {
  const peer = normalize(socketAddress ?? 'unknown');
  if (trustedProxies === 0 || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  // The peer is the nearest proxy; each further trusted proxy appended the address it saw.
  const index = hops.length - trustedProxies;
  const candidate = index >= 0 ? hops[index] : hops[0];
  return candidate !== undefined && isIpAddress(candidate) ? normalize(candidate) : peer;
}

function normalize(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9a-fA-F:.]{2,45}$/;

function isIpAddress(value: string): boolean {
  return IPV4.test(value) || (value.includes(':') && IPV6.test(value));
}
