import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createApi } from '../app.ts';
import { contactFormHandler } from '../contact/contact-form.ts';
import { ContactPage } from '../contact/contact-page.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import { DISCOVERY_LINKS } from '../http/router.ts';
import { securityHeaders } from '../http/security-headers.ts';
import type { DocPage } from '../docs/doc-page.ts';
import { flushLog, flushLogOnExit, logEvent } from '../log.ts';
import { mcpRoutes } from '../mcp/mcp-routes.ts';
import { SERVER_CARD_PATHS } from '../mcp/server-identity.ts';
import type { ProjectSource } from '../projects/catalog.ts';
import { searchPageHandler } from '../search/search-page-handler.ts';
import { SearchPage } from '../search/search-page.ts';
import { limitConnections, serverTimeouts } from './connection-limits.ts';
import { installCrashPolicy } from './crash-policy.ts';
import { createRequestListener } from './request-listener.ts';
import { StaticFiles } from './static-files.ts';

/** How long SIGTERM waits for in-flight requests before it closes what is left. */
const DRAIN_TIMEOUT_MS = 10_000;
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function loadBuild(): { projects: ProjectSource[]; searchIndex: string; docs: DocPage[] } {
  try {
    const { projects } = JSON.parse(readFileSync(`${DIST}client/portfolio.json`, 'utf8')) as { projects: ProjectSource[] };
    const { docs } = JSON.parse(readFileSync(`${DIST}client/docs.json`, 'utf8')) as { docs: DocPage[] };
    return { projects, docs, searchIndex: readFileSync(`${DIST}client/search-index.json`, 'utf8') };
  } catch {
    process.stderr.write('No build found in dist/. Run `npm run build` first (`npm start` does both).\n');
    process.exit(1);
  }
}

const config = loadConfigOrExit();
const build = loadBuild();
const api = createApi(config, build.projects, build.searchIndex);
// The home page and the catalog point agents at the catalog and the description (RFC 8288 links);
// HEAD on the catalog answers with its own Link (RFC 9727 section 2).
const discoveryLinks = { link: DISCOVERY_LINKS };
// Server cards are read by MCP clients in any origin.
const openToAll = { 'access-control-allow-origin': '*' };
const statics = new StaticFiles(`${DIST}client`, securityHeaders(config.siteUrl), {
  '/': discoveryLinks,
  '/.well-known/api-catalog': discoveryLinks,
  ...Object.fromEntries(SERVER_CARD_PATHS.map((path) => [path, openToAll])),
});
/** A built page that a handler fills in per request (the form echoed back, the search results). */
function pageTemplate(urlPath: string, name: string): string {
  const template = statics.get(urlPath)?.identity.body.toString('utf8');
  if (template === undefined) throw new Error(`The build has no ${name} page`);
  return template;
}
const endpoints = new Map([
  ['/contact', contactFormHandler(api.services.contact, new ContactPage(pageTemplate('/contact', 'contact')), api.services.quotas)],
  ['/search', searchPageHandler(api.services.search, new SearchPage(pageTemplate('/search', 'search')), api.services.quotas.limiter('anonymous', 'read'))],
  ...mcpRoutes(api, build.docs),
]);
const server = createServer(serverTimeouts(config.connections), createRequestListener({ api, statics, endpoints }));
limitConnections(server, config.connections, config.trustProxy);

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  logEvent('listening', { url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`, port, siteUrl: config.siteUrl });
});

let shuttingDown = false;

/**
 * Stop accepting, let in-flight requests finish, then exit: 0 after SIGTERM from an
 * orchestrator (or Ctrl-C), 1 after an uncaught exception (see crash-policy.ts).
 */
function shutdown(reason: string, exitCode: number): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logEvent('shutting down', { reason, exitCode });
  process.exitCode = exitCode;
  // Keep-alive sockets turn idle as their responses finish; close them as they do.
  const reaper = setInterval(() => server.closeIdleConnections(), 50);
  server.close(() => {
    clearInterval(reaper);
    api.services.close();
    flushLog();
    process.exit(exitCode);
  });
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
  // Should closing itself fail (a broken process after an uncaught exception), exit anyway.
  setTimeout(() => process.exit(exitCode), 2 * DRAIN_TIMEOUT_MS).unref();
}

flushLogOnExit();
installCrashPolicy(shutdown);
process.once('SIGTERM', () => shutdown('SIGTERM', 0));
process.once('SIGINT', () => shutdown('SIGINT', 0));
