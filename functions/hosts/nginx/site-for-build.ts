import { readFileSync } from 'node:fs';
import path from 'node:path';
import { apiOrigin } from '../../config/env.ts';
import { siteBaseUrl } from '../../config/site-url.ts';
import { ENV_VARIABLES } from '../../config/env-variables.ts';
import { securityHeaders } from '../../http/security-headers.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../static/build-manifest.ts';
import { builtFileHeaders } from '../static/built-file-headers.ts';
import { nginxSite, type NginxSiteOptions } from './site.ts';
import { listBuiltFiles } from '../static/built-files.ts';

/** Where `npm run build` writes the site (scripts/nginx-site.ts), beside the output it serves. */
export const NGINX_SITE_FILE = 'nginx/portfolio.conf';

/**
 * The nginx site for the build in `distDir`: its files, and the SITE_URL and API_ORIGIN it was built
 * with (in its manifest), so that the headers are the ones the Node service sends for this build. By default it
 * serves `distDir/client` where it is, names SITE_URL's host, passes the service's paths to the
 * unit's address (HOST and PORT's defaults, deploy/systemd/portfolio.service) and uses brotli_static.
 */
export function nginxSiteForBuild(
  distDir: string,
  overrides: Partial<Omit<NginxSiteOptions, 'table' | 'commonHeaders'>> = {},
): string {
  const manifest = JSON.parse(readFileSync(path.join(distDir, BUILD_MANIFEST_FILE), 'utf8')) as BuildManifest;
  const siteUrl = siteBaseUrl(manifest.environment.SITE_URL ?? '');
  if (siteUrl === null) throw new Error(`${distDir}/${BUILD_MANIFEST_FILE} names no SITE_URL: build again`);
  const origins = { siteUrl, apiOrigin: apiOrigin(manifest.environment) };
  const clientDir = path.resolve(distDir, 'client');
  return nginxSite({
    table: builtFileHeaders(listBuiltFiles(clientDir), origins),
    root: clientDir,
    serverName: new URL(siteUrl).hostname,
    upstream: { host: ENV_VARIABLES.HOST.default, port: Number(ENV_VARIABLES.PORT.default) },
    brotli: true,
    commonHeaders: securityHeaders(origins),
    ...overrides,
  });
}
