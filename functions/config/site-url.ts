/**
 * The site's public address has three sources, first found wins: `SITE_URL` in the environment;
 * else, in a build on a host that announces the site's address itself, that host's own variable
 * (HOST_SITE_URLS); else the `siteUrl` of content/site.json (ENV_VARIABLES.SITE_URL). All follow
 * this one rule, so a value valid in one is valid in the others and all mean the same site.
 */
export const SITE_URL_RULE =
  'an absolute http:// or https:// URL without query, fragment or credentials, such as https://ada.example';

/** Where the default of SITE_URL comes from off these hosts, as the error messages name it. */
export const SITE_URL_FILE_SOURCE = 'siteUrl in content/site.json';

/** A host whose builds carry the site's address in a variable of the host's own. */
interface HostSiteUrl {
  host: string;
  /** The variable, and its value, by which the host says a build runs on it. */
  marker: readonly [string, string];
  /** The variable holding the address. */
  variable: string;
  /** Put before the variable's value: Vercel gives a host name without a scheme. */
  prefix: string;
}

/**
 * The hosts' own address variables, in their documentation's words:
 * - Netlify (docs, "Build environment variables" > "Read-only variables"): `URL`, "the main
 *   address to your site", the production one even in deploy previews; `NETLIFY=true` in its builds.
 * - Cloudflare Pages (docs, "Build configuration" > "Environment variables"): `CF_PAGES_URL`, the
 *   URL of the deployment being built (`https://<hash>.<project>.pages.dev`, each deployment's
 *   own, which stays valid); `CF_PAGES=1`. A custom domain, or `<project>.pages.dev` itself,
 *   is given as SITE_URL.
 * - Vercel (docs, "System environment variables"): `VERCEL_PROJECT_PRODUCTION_URL`, the
 *   production domain without scheme, set in preview builds too; `VERCEL=1`.
 */
const HOST_SITE_URLS: readonly HostSiteUrl[] = [
  { host: 'Netlify', marker: ['NETLIFY', 'true'], variable: 'URL', prefix: '' },
  { host: 'Cloudflare Pages', marker: ['CF_PAGES', '1'], variable: 'CF_PAGES_URL', prefix: '' },
  { host: 'Vercel', marker: ['VERCEL', '1'], variable: 'VERCEL_PROJECT_PRODUCTION_URL', prefix: 'https://' },
];

/** The whole rule, as the configuration table shows SITE_URL's default. */
export const SITE_URL_DEFAULT_SOURCE = `${HOST_SITE_URLS.map(
  ({ host, marker: [name, value], variable, prefix }) =>
    `${prefix === '' ? '' : `${prefix} + `}\`${variable}\` on ${host} (\`${name}=${value}\`)`,
).join(', ')}, else ${SITE_URL_FILE_SOURCE}`;

/** A default and where it came from, for the messages that name it. */
export interface SourcedValue {
  value: string;
  from: string;
}

/** The address the host this runs on announces (HOST_SITE_URLS), or undefined off those hosts or when it announces none. */
export function hostSiteUrl(env: Record<string, string | undefined>): SourcedValue | undefined {
  for (const { host, marker, variable, prefix } of HOST_SITE_URLS) {
    const value = env[variable];
    if (env[marker[0]] === marker[1] && value !== undefined && value !== '')
      return { value: `${prefix}${value}`, from: `${variable} set by ${host}` };
  }
  return undefined;
}

/** `text` as the base of every absolute link (no trailing slash), or null when it breaks SITE_URL_RULE. */
export function siteBaseUrl(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search || url.hash || url.username || url.password) return null;
  return url.href.replace(/\/+$/, '');
}
