import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApi, type Api } from '../../functions/app/app.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { BUILT_ELSEWHERE } from '../../functions/site/discovery-documents.ts';
import type { DocPage } from '../../functions/site/doc-page.ts';
import { securityHeaders } from '../../functions/http/security-headers.ts';
import { isPageEndpoint } from '../../functions/app/endpoints.ts';
import { APP_VIEW_BUILD_DIR } from '../../functions/mcp/app-views.ts';
import { isServicePath, serviceHandle } from '../../functions/app/handle.ts';
import { splitTarget } from '../../functions/hosts/node/node-request.ts';
import { createRequestListener } from '../../functions/hosts/node/request-listener.ts';
import { projectSources } from './catalog.ts';
import { docPages } from './docs.ts';
import { searchIndexJson } from './search-index.ts';

/** Marks the dev service's own request for a page template, which Astro must render as it is. */
const TEMPLATE_REQUEST_HEADER = 'x-portfolio-template';

let service: Promise<{ api: Api; docs: DocPage[] }> | undefined;

/**
 * The production service under `astro dev`, loaded by src/lib/dev-mount.ts through Vite (so the
 * content collections are at hand): the production request listener with the service's one entry
 * (functions/app/handle.ts: the router, the contact form, the search page, both MCP servers), and
 * Astro rendering everything else. The API is built once per dev server from the content as it
 * was then; the contact and search pages are rendered by Astro on each request (asked for over
 * HTTP, as the server's own template request), so an edit to them shows at once.
 */
export async function serveInDev(
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  origin: string,
): Promise<void> {
  const { path } = splitTarget(req.url ?? '/');
  // A document the build writes under another name is rendered by Astro under that name too.
  const builtAs = Object.entries(BUILT_ELSEWHERE).find(([, url]) => url === path)?.[0];
  if (builtAs !== undefined) req.url = builtAs;
  if (req.headers[TEMPLATE_REQUEST_HEADER] !== undefined || !isServicePath(path)) {
    next();
    return;
  }
  // The same index the build writes, so search under `astro dev` covers the docs too.
  service ??= Promise.all([projectSources(), searchIndexJson(), docPages()]).then(async ([projects, index, docs]) => ({
    api: await createApi(loadConfig(), projects, index),
    docs,
  }));
  const { api, docs } = await service;
  const template = isPageEndpoint(path) ? await renderedPage(origin, path) : '';
  // Only the requested page's handler runs, so the other page needs no template.
  const handle = serviceHandle(
    api,
    docs,
    (page) => (page === path ? template : ''),
    (name) => renderedPage(origin, `/${APP_VIEW_BUILD_DIR}/${name}`),
  );
  // Vite's dev client injects inline styles and opens a websocket, which the production
  // Content-Security-Policy forbids; the built pages are checked against it in real Chromium.
  const { config } = api.services;
  const { 'content-security-policy': _policy, ...commonHeaders } = securityHeaders(config);
  createRequestListener({ config, handle, commonHeaders })(req, res, next);
}

/** The page (or MCP Apps view) as Astro renders it now, with its {{slots}}, as the build writes it. */
async function renderedPage(origin: string, path: string): Promise<string> {
  const response = await fetch(`${origin}${path}`, { headers: { [TEMPLATE_REQUEST_HEADER]: '1' } });
  if (!response.ok) throw new Error(`astro dev answered ${response.status} for the ${path} page`);
  return response.text();
}
