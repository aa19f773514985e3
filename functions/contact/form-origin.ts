import type { PublicOrigins } from '../config/public-urls.ts';
import { ApiError } from '../http/api-error.ts';
import { headerValue, type ApiRequest } from '../http/types.ts';

/**
 * Whether a post of the no-JavaScript contact form comes from the site's own pages. On SITE_URL
 * the service serves the form itself, with a signed fill-time token (./form-token.ts) that a
 * post must bring back, so any post is taken and the token judges it. With API_ORIGIN the form
 * is a static file on the site and carries no token: a page on any other origin could make its
 * visitors' browsers post it (a cross-site form post needs no CORS preflight, Fetch standard,
 * "CORS-safelisted method"), and each post would reach the inbox. There the post is taken only
 * when its Origin names the site (SITE_URL's origin) or the API origin itself (the form the
 * service shows again after a problem posts from there). A browser sends Origin with every POST
 * (Fetch standard, "append a request `Origin` header"), as `null` when the page's referrer policy
 * hides it; Referer (RFC 9110 section 10.1.3) stands in only where Origin is absent (older
 * browsers). A post with neither comes from no browser page: a script, which has the API
 * (POST /api/v1/contact) for this, so it is refused too.
 */
export function formPostFromSite({ siteUrl, apiOrigin }: PublicOrigins): (request: ApiRequest) => boolean {
  if (apiOrigin === null) return () => true;
  const allowed = new Set([new URL(siteUrl).origin, new URL(apiOrigin).origin]);
  return (request) => {
    const origin = headerValue(request, 'origin');
    if (origin !== undefined) return allowed.has(origin);
    const referer = headerValue(request, 'referer');
    if (referer === undefined) return false;
    try {
      return allowed.has(new URL(referer).origin);
    } catch {
      return false;
    }
  };
}

/** The refusal of a form post from elsewhere (403 `cross_origin_refused`), which the form shows as its summary. */
export function formPostRefused({ siteUrl, apiOrigin }: PublicOrigins): ApiError {
  return new ApiError('cross_origin_refused', 'This form takes messages sent from the site’s own contact page only.', {
    hint: `Write your message on ${siteUrl}/contact; a program sends it with POST ${apiOrigin ?? siteUrl}/api/v1/contact.`,
  });
}
