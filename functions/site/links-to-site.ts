/** An anchor's `href` that is a path on the same origin (one slash, not `//host`). */
const ROOT_RELATIVE_ANCHOR = /(<a\b[^>]*?\shref=")\/(?!\/)/g;

/**
 * A built page as the dynamic part answers it from its own origin (API_ORIGIN): the contact form
 * shown again with its errors, the search results. Its links lead back to the pages on SITE_URL,
 * where the visitor came from. Its styles and scripts stay relative: the service serves the same
 * build, and its Content-Security-Policy allows only its own ('self').
 */
export function linksToSite(html: string, siteUrl: string): string {
  return html.replace(ROOT_RELATIVE_ANCHOR, `$1${siteUrl}/`);
}
