import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../functions/config/env.ts';
import { builtFileHeaders, VERCEL_IGNORE } from '../functions/hosts/static/built-file-headers.ts';
import { headerRules } from '../functions/hosts/static/header-rules.ts';
import { cloudflareHeaderRules } from '../functions/hosts/cloudflare/cloudflare-headers.ts';
import { CLOUDFLARE_MAX_HEADER_RULES, headersFile } from '../functions/hosts/static/headers-file.ts';
import { proxyTarget } from '../functions/hosts/static/proxy-target.ts';
import { redirectsFile } from '../functions/hosts/static/redirects-file.ts';
import { COMPRESSED_VARIANTS, listBuiltFiles } from '../functions/hosts/static/built-files.ts';
import { answeredByService, staticHostPaths } from '../functions/hosts/static/static-host-paths.ts';
import { vercelConfig, vercelIgnore } from '../functions/hosts/vercel/vercel-config.ts';

/**
 * Part of `npm run build`: the static hosts' rules, made from the header table the Node server
 * serves with, into the client dir beside the files they describe: `_headers` and `_redirects`
 * (Netlify, Cloudflare Pages) and `vercel.json` (Vercel, deploying that folder). The dynamic
 * paths are proxied to BACKEND_ORIGIN or API_ORIGIN (functions/hosts/static/proxy-target.ts). Netlify and
 * Cloudflare Pages read the same `_headers`, but Cloudflare takes at most 100 rules: a build on
 * Cloudflare Pages (which sets CF_PAGES=1, Cloudflare Pages docs, "Build configuration" >
 * "Environment variables"), or with CF_PAGES=1 for `wrangler pages deploy`, writes its rules
 * (functions/hosts/cloudflare/cloudflare-headers.ts).
 */
const ROOT = path.resolve(process.argv[2] ?? 'dist/client');
const config = loadConfig();
const origins = { siteUrl: config.siteUrl, apiOrigin: config.apiOrigin };
const target = proxyTarget(config);

const table = builtFileHeaders(listBuiltFiles(ROOT), origins);
const rules = headerRules(staticHostPaths(table), answeredByService(origins));
const forCloudflare = process.env.CF_PAGES === '1';
const headerFileRules = forCloudflare ? cloudflareHeaderRules(table, origins) : rules;
writeFileSync(path.join(ROOT, '_headers'), headersFile(headerFileRules));
writeFileSync(path.join(ROOT, '_redirects'), redirectsFile(table, target));
writeFileSync(path.join(ROOT, 'vercel.json'), `${JSON.stringify(vercelConfig(table, rules, target), null, 2)}\n`);
writeFileSync(path.join(ROOT, VERCEL_IGNORE), vercelIgnore(table, target, Object.values(COMPRESSED_VARIANTS)));
const flavour = forCloudflare
  ? `for Cloudflare Pages, ${headerFileRules.length} of its ${CLOUDFLARE_MAX_HEADER_RULES} rules`
  : `${headerFileRules.length} rules; CF_PAGES=1 writes Cloudflare's`;
process.stdout.write(
  `host rules: _headers (${flavour}), _redirects, vercel.json, .vercelignore under ${path.relative(process.cwd(), ROOT)}\n`,
);
