import { isIP } from 'node:net';

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
  return (candidate === undefined ? null : forwardedAddress(candidate)) ?? peer;
}

/**
 * An X-Forwarded-For entry as an IP address, or null when it is none. Some proxies append the
 * client's port (`192.0.2.1:1234`, `[2001:db8::1]:443`); it is dropped. Anything node:net does
 * not parse as an address (`::::7`, `1.2.3.4:x`) is refused, so odd spellings cannot mint quotas.
 */
export function forwardedAddress(entry: string): string | null {
  // Brackets hold only IPv6 (RFC 3986 section 3.2.2); an IPv4 address carries its port after one colon.
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const withPort = bracketed ?? /^([\d.]+):(\d{1,5})$/.exec(entry);
  const address = withPort?.[1] ?? entry;
  if (withPort?.[2] !== undefined && Number(withPort[2]) > 65535) return null;
  if (isIP(address) === 0 || (bracketed !== null && isIP(address) !== 6)) return null;
  return normalize(address.toLowerCase());
}

/**
 * Who a per-IP quota counts against: the address itself for IPv4, and the /64 network for IPv6,
 * because one subscriber is normally given a whole /64 (RFC 6177) and could rotate through its
 * addresses to get a fresh quota with each.
 */
export function clientKeyOf(clientIp: string): string {
  if (isIP(clientIp) !== 6) return clientIp;
  return `${ipv6Groups(clientIp)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The eight 16-bit groups of an IPv6 address node:net accepted (`::` expanded, a zone or dotted tail allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const gap = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...gap, ...right].map((group) => Number.parseInt(group, 16));
}
