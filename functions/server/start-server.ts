import { createServer, type Server } from 'node:http';
import { createApi, type Api } from '../app/app.ts';
import type { Config } from '../config/env.ts';
import { isOpenToAll } from '../docs/discovery-documents.ts';
import { serviceHandle } from '../app/handle.ts';
import { DISCOVERY_LINKS } from '../http/router.ts';
import { OPEN_TO_ALL } from '../http/cors.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { SERVER_CARD_CORS_HEADERS, SERVER_CARD_PATHS } from '../mcp/server-identity.ts';
import type { Build } from './build-output.ts';
import { logError } from '../log/log.ts';
import { limitConnections, serverTimeouts } from './connection-limits.ts';
import { createRequestListener } from './request-listener.ts';
import { StaticFiles } from './static-files.ts';

/** How long `close()` waits for in-flight requests before it closes what is left. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** A listening service. */
export interface RunningService {
  server: Server;
  api: Api;
  /** Where it listens, e.g. `http://127.0.0.1:4321` (with the port chosen when config.port is 0). */
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish (keep-alive sockets close as they turn idle;
   * whatever is left after 10 s is cut), then stops background work and closes the database.
   */
  close(): Promise<void>;
}

/**
 * The whole production service on one port: the router, the page and MCP endpoints, and the
 * prerendered files from memory. It does not check that `build` suits `config` (the entry,
 * functions/server/main.ts, does), so tests may start it in process with any configuration,
 * on port 0, and close it when done. Process concerns (signals, crash policy, exit codes) stay
 * in the entry.
 *
 * ```ts
 * const service = await startServer(loadConfig({ PORT: '0', DATA_DIR: dir }), loadBuild('dist'));
 * await fetch(`${service.url}/api/v1/projects`);
 * await service.close();
 * ```
 */
export async function startServer(config: Config, build: Build): Promise<RunningService> {
  const api = await createApi(config, build.projects, build.searchIndex);
  await api.services.quotas.ready();
  // The home page and the catalog point agents at the catalog and the description (RFC 8288 links);
  // HEAD on the catalog answers with its own Link (RFC 9727 section 2).
  const discoveryLinks = { link: DISCOVERY_LINKS };
  // Discovery and other public documents are read by agents and tools in any origin; server cards
  // by MCP clients, with the CORS headers their draft asks for (functions/mcp/server-identity.ts).
  const serverCards = new Set<string>(SERVER_CARD_PATHS);
  const extraHeaders = (path: string): Record<string, string> | undefined => {
    if (serverCards.has(path)) return SERVER_CARD_CORS_HEADERS;
    const links = path === '/' || path === '/.well-known/api-catalog' ? discoveryLinks : {};
    return { ...links, ...(isOpenToAll(path) ? OPEN_TO_ALL : {}) };
  };
  const statics = new StaticFiles(build.clientDir, securityHeaders(config), extraHeaders, config.siteUrl);
  const handle = serviceHandle(api, build.docs, (path) => build.pageTemplates[path]);
  const server = createServer(serverTimeouts(config.connections), createRequestListener({ config, handle, statics }));
  limitConnections(server, config.connections, config.trustProxy);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await api.services.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      const cut = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
      server.close(() => {
        clearInterval(reaper);
        clearTimeout(cut);
        void api.services
          .close()
          .catch((error: unknown) => logError('close', error))
          .finally(resolve);
      });
      server.closeIdleConnections();
    }));
  return { server, api, url, port, close };
}
