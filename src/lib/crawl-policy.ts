/**
 * Paths that are not pages for crawlers: robots.txt disallows them and the sitemap leaves them out,
 * so the two never disagree. Each is a path prefix, as a robots.txt rule matches (RFC 9309
 * section 2.2.2).
 */
export const DISALLOWED_PATHS = ['/api/v1/contact', '/contact/thanks'] as const;

/** Whether robots.txt disallows this path for every crawler. */
export function isDisallowed(path: string): boolean {
  return DISALLOWED_PATHS.some((prefix) => path.startsWith(prefix));
}
