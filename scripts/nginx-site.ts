import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NGINX_SITE_FILE, nginxSiteForBuild } from '../functions/hosts/nginx/site-for-build.ts';

/**
 * Part of `npm run build`, and `npm run nginx-site` on its own: writes dist/nginx/portfolio.conf,
 * the nginx site that serves this build's files itself and passes the service's paths to the
 * Node service (functions/hosts/nginx/site.ts). Options change what belongs to the machine:
 *
 *   --root <dir>          the static output on the server (default: dist/client here, absolute)
 *   --server-name <name>  server_name and certbot's certificate paths (default: SITE_URL's host)
 *   --upstream <host:port> the service (default: 127.0.0.1:4321, the systemd unit's)
 *   --without-brotli      for an nginx without brotli_static (Debian: libnginx-mod-http-brotli-static)
 */
const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    'server-name': { type: 'string' },
    upstream: { type: 'string' },
    'without-brotli': { type: 'boolean', default: false },
  },
});
const upstream = values.upstream === undefined ? undefined : /^(.+):(\d+)$/.exec(values.upstream);
if (upstream === null) throw new Error(`--upstream ${values.upstream}: expected host:port`);
const site = nginxSiteForBuild('dist', {
  ...(values.root === undefined ? {} : { root: path.resolve(values.root) }),
  ...(values['server-name'] === undefined ? {} : { serverName: values['server-name'] }),
  ...(upstream === undefined ? {} : { upstream: { host: upstream[1]!, port: Number(upstream[2]) } }),
  brotli: !values['without-brotli'],
});
const out = path.join('dist', NGINX_SITE_FILE);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, site);
process.stdout.write(`nginx site: ${out}\n`);
