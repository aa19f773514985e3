import { redactUrl } from './redact-url.ts';
import { SITE_URL_RULE, siteBaseUrl } from './site-url.ts';
import type { Reading, VariableKind } from './variable-kinds.ts';

// The kinds of variable that name a place on the network: a URL, an origin, a host.

/** The site's base URL (site-url.ts), without a trailing slash: one rule for SITE_URL and content/site.json. */
export const siteUrl: VariableKind<string> = {
  accepts: SITE_URL_RULE,
  read: (text) => {
    const value = siteBaseUrl(text);
    return value === null ? { refused: text } : { value };
  },
};

/** An interface to listen on: a host name or an IP address, as node:net takes it. */
export const hostName: VariableKind<string> = {
  accepts: 'a host name or IP address',
  read: (text) => (/^[A-Za-z0-9.:\-[\]]{1,253}$/.test(text) ? { value: text } : { refused: text }),
};

/**
 * An absolute URL with one of `protocols` (e.g. `['redis:', 'rediss:']`), or null when empty. A
 * refused one is quoted without its secrets (redact-url.ts): it may hold a password.
 */
export function optionalUrl(protocols: readonly string[]): VariableKind<string | null> {
  const schemes = protocols.map((protocol) => `\`${protocol}//\``).join(' or ');
  return {
    accepts: `an absolute ${schemes} URL, or empty`,
    read: (text) => {
      if (text === '') return { value: null };
      if (URL.canParse(text)) {
        const url = new URL(text);
        if (protocols.includes(url.protocol)) return { value: url.href };
      }
      return { refused: redactUrl(text) };
    },
  };
}

/** Hosts a browser trusts over plain http (Secure Contexts, "potentially trustworthy origin"). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin the service answers on (API_ORIGIN, BACKEND_ORIGIN), `example` showing one: a
 * serialized origin (scheme, host, optional port; no path, query or credentials), https unless
 * its host is loopback, since pages on https may not post to or fetch from http (mixed content)
 * and a visitor's message must not cross the network in the clear. Null when empty.
 */
export function optionalOrigin(example: string): VariableKind<string | null> {
  return {
    accepts: `an origin such as \`${example}\` (https, or http on localhost/127.0.0.1/[::1]; no path), or empty`,
    read: (text) => {
      const trimmed = text.trim();
      if (trimmed === '') return { value: null };
      if (!URL.canParse(trimmed)) return { refused: trimmed };
      const url = new URL(trimmed);
      const plainAllowed = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
      return (url.protocol === 'https:' || plainAllowed) && isOriginText(url, trimmed)
        ? { value: url.origin }
        : { refused: trimmed };
    },
  };
}

/** Whether `text` is the serialized origin of `url` (a trailing slash and upper case aside): no path, query or credentials. */
function isOriginText(url: URL, text: string): boolean {
  return url.origin === text.replace(/\/$/, '').toLowerCase();
}

/** Comma-separated items, each trimmed and read by `item` (which gives null for a bad one); `empty` when there are none. */
function list<T, E>(text: string, empty: E, item: (trimmed: string) => T | null): Reading<T[] | E> {
  if (text.trim() === '') return { value: empty };
  const values: T[] = [];
  for (const part of text.split(',')) {
    const trimmed = part.trim();
    const value = item(trimmed);
    if (value === null) return { refused: trimmed };
    values.push(value);
  }
  return { value: values };
}

/** Comma-separated origins (scheme, host, optional port), each written as its serialized origin; null when empty. */
export const originList: VariableKind<string[] | null> = {
  accepts: 'comma-separated origins such as `https://app.example` or `http://localhost:3000`, or empty',
  read: (text) =>
    list(text, null, (trimmed) => {
      if (!URL.canParse(trimmed)) return null;
      const url = new URL(trimmed);
      return (url.protocol === 'http:' || url.protocol === 'https:') && isOriginText(url, trimmed) ? url.origin : null;
    }),
};

/** Comma-separated host names without ports, each as a URL spells it (lower case, IPv6 in brackets); none when empty. */
export const hostList: VariableKind<string[]> = {
  accepts: 'comma-separated host names such as `www.example.com` or `portfolio.internal`, or empty',
  read: (text) =>
    list(text, [], (trimmed) => {
      if (!URL.canParse(`http://${trimmed}`)) return null;
      const url = new URL(`http://${trimmed}`);
      return url.hostname === trimmed.toLowerCase() && url.port === '' && url.pathname === '/' ? url.hostname : null;
    }),
};
