import type { PublicOrigins } from '../config/public-urls.ts';

/**
 * Headers sent on every response, pages, documents and API alike. The policy allows only our
 * own scripts, styles and images: Astro is built with external stylesheets and no inline script,
 * so nothing needs 'unsafe-inline'. When the dynamic part has an origin of its own (API_ORIGIN),
 * the pages' scripts fetch from it and their forms post to it, so connect-src and form-action
 * name it beside 'self' (CSP Level 3, "connect-src" and "form-action"), and form-action the site.
 */
export function securityHeaders({ siteUrl, apiOrigin }: PublicOrigins): Record<string, string> {
  const service = apiOrigin === null ? '' : ` ${apiOrigin}`;
  // A form post's redirect is checked against form-action too (CSP Level 3, "form-action"): the
  // form the service shows again from its origin redirects to the site's thank-you page.
  const forms = apiOrigin === null ? '' : ` ${new URL(siteUrl).origin} ${apiOrigin}`;
  const headers: Record<string, string> = {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src 'self'${service}`,
      "object-src 'none'",
      "base-uri 'none'",
      `form-action 'self'${forms}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
  };
  // RFC 6797 section 7.2: HSTS is only meaningful, and only sent, over https.
  if (siteUrl.startsWith('https://')) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}
