import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../functions/config/site.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from '../../functions/hosts/static/build-manifest.ts';
import { buildFor } from '../support/split-build.ts';

/** Every variable that could name the site's address, unset, so that only a host's own decides. */
const NO_ADDRESS = {
  SITE_URL: '',
  API_ORIGIN: '',
  BACKEND_ORIGIN: '',
  NETLIFY: '',
  URL: '',
  CF_PAGES: '',
  CF_PAGES_URL: '',
  VERCEL: '',
  VERCEL_PROJECT_PRODUCTION_URL: '',
};

/** Each host's build, with only the variables the host itself sets, and the address they make. */
const HOSTS = [
  {
    host: 'netlify',
    env: { NETLIFY: 'true', URL: 'https://ada-netlify.example' },
    siteUrl: 'https://ada-netlify.example',
  },
  {
    host: 'vercel',
    env: { VERCEL: '1', VERCEL_PROJECT_PRODUCTION_URL: 'ada-vercel.example' },
    siteUrl: 'https://ada-vercel.example',
  },
  {
    host: 'cloudflare',
    env: { CF_PAGES: '1', CF_PAGES_URL: 'https://1a2b3c4d.ada-pages.example' },
    siteUrl: 'https://1a2b3c4d.ada-pages.example',
  },
];

/** Files a browser, crawler or agent reads as text (the .br/.gz twins and images are left out). */
const TEXT = /(\.(html|txt|md|xml|json|yaml|js|css|webmanifest)|\/_headers|\/_redirects|\/[^./]+)$/;

function textFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => TEXT.test(file));
}

const ABSOLUTE_URL = /https?:\/\/[^\s"'<>`()[\]{}\\,]+/g;

/**
 * Issue-free deploys type the address once: a build on Netlify, Vercel or Cloudflare Pages with
 * none of its own takes the one the host gives it (functions/config/site-url.ts), and then every
 * page, document and host file names that address and none names content/site.json's.
 * Each build takes a minute or more on a loaded machine; the three run one after the other.
 */
describe("a build on a host, with only the host's own address variable set", () => {
  const fromFile = new URL(loadSite().siteUrl).origin;
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it.each(HOSTS)(
    'on $host names $siteUrl everywhere, and never content/site.json’s address',
    async ({ host, env, siteUrl }) => {
      const dist = await buildFor({ ...NO_ADDRESS, ...env }, `site-url-from-host-${host}`, { hostRules: true });
      folders.push(dist);
      const client = path.join(dist, 'client');
      const read = (file: string) => readFileSync(path.join(client, file), 'utf8');

      const manifest = JSON.parse(readFileSync(path.join(dist, BUILD_MANIFEST_FILE), 'utf8')) as BuildManifest;
      expect(manifest.environment.SITE_URL).toBe(siteUrl);

      for (const file of textFiles(dist)) {
        const origins = [...readFileSync(file, 'utf8').matchAll(ABSOLUTE_URL)].map(([url]) =>
          URL.canParse(url) ? new URL(url).origin : url,
        );
        expect(origins, path.relative(dist, file)).not.toContain(fromFile);
      }

      expect(read('index.html')).toContain(`<link rel="canonical" href="${siteUrl}/"`);
      expect(read('llms.txt')).toContain(`${siteUrl}/`);
      const sitemap = read('sitemap-0.xml');
      const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc);
      expect(locations.length).toBeGreaterThan(5);
      for (const loc of locations) expect(loc?.startsWith(`${siteUrl}/`), loc).toBe(true);
      expect(read('sitemap-index.xml')).toContain(`<loc>${siteUrl}/sitemap-0.xml</loc>`);
      const openapi = JSON.parse(read('openapi.json')) as { servers: { url: string }[] };
      expect(openapi.servers.map((server) => server.url)).toEqual([siteUrl]);
      expect(read('.well-known/mcp/server-card.json')).toContain(`${siteUrl}/mcp`);
      for (const document of [
        '.well-known/api-catalog',
        '.well-known/oauth-protected-resource/index.json',
        '.well-known/oauth-authorization-server',
        '.well-known/ai-catalog.json',
        '.well-known/agent-skills/index.json',
        'robots.txt',
      ])
        expect(read(document), document).toContain(siteUrl);
      // The static hosts' rules name the address in their Link headers (_headers, vercel.json);
      // Cloudflare's 100 rules (CF_PAGES=1) keep no per-page Link, and _redirects, with no service
      // origin, proxies nowhere: those hold no absolute URL at all, which the scan above checked.
      if (host !== 'cloudflare') expect(read('_headers')).toContain(siteUrl);
      expect(read('vercel.json')).toContain(siteUrl);
      expect(read('_redirects')).not.toContain(fromFile);
    },
    900_000,
  );
});
