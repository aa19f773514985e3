/**
 * The site's public address has two sources: `SITE_URL` in the environment, when set, and else the
 * `siteUrl` of content/site.json (ENV_VARIABLES.SITE_URL). Both follow this one rule, so a value
 * valid in one is valid in the other and both mean the same site.
 */
export const SITE_URL_RULE =
  'an absolute http:// or https:// URL without query, fragment or credentials, such as https://ada.example';

/** Where the default of SITE_URL comes from, as the configuration table and the error messages name it. */
export const SITE_URL_DEFAULT_SOURCE = 'siteUrl in content/site.json';

/** `text` as the base of every absolute link (no trailing slash), or null when it breaks SITE_URL_RULE. */
export function siteBaseUrl(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search || url.hash || url.username || url.password) return null;
  return url.href.replace(/\/+$/, '');
}
