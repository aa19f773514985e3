import type { Config } from '../../config/env.ts';

/**
 * Where a static host's rules (`_redirects`, `vercel.json`) proxy the service's paths:
 * BACKEND_ORIGIN, behind the site's own origin (the pages name SITE_URL); else API_ORIGIN, which
 * the pages name, for a visitor who follows a SITE_URL link to a dynamic path anyway; else
 * nowhere (''). The configuration never has both (functions/config/env.ts).
 */
export function proxyTarget({ apiOrigin, backendOrigin }: Pick<Config, 'apiOrigin' | 'backendOrigin'>): string {
  return backendOrigin ?? apiOrigin ?? '';
}
