import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createApi, type Api } from '../../app/app.ts';
import type { Config } from '../../config/env.ts';
import { serviceHandle } from '../../app/handle.ts';
import type { Build } from '../static/build-output.ts';
import { logError } from '../../log/log.ts';
import { limitConnections, serverTimeouts } from './connection-limits.ts';
import { createRequestListener } from './request-listener.ts';
import { closeGently } from './drain.ts';
import { listBuiltFiles } from '../static/built-files.ts';
import { StaticFiles, STATIC_FILES_LIMITS, type StaticFilesLimits } from './static-files.ts';
import { builtFileHeaders } from '../static/built-file-headers.ts';

/** How long `close()` waits for in-flight requests before it closes what is left. */
export const DRAIN_TIMEOUT_MS = 10_000;

/** A listening service. */
export interface RunningService {
  server: Server;
  api: Api;
  /** The built files it serves, with their cache. */
  statics: StaticFiles;
  /** Where it listens, e.g. `http://127.0.0.1:4321` (with the port chosen when config.port is 0). */
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish (each answer from then on closes its
   * connection; see drain.ts; whatever is left after 10 s is cut), then stops background work and
   * closes the database.
   */
  close(): Promise<void>;
}

/**
 * The whole production service on one port: the router, the page and MCP endpoints, and the
 * prerendered files from memory. It does not check that `build` suits `config` (the entry,
 * functions/hosts/node/main.ts, does), so tests may start it in process with any configuration,
 * on port 0, and close it when done. Process concerns (signals, crash policy, exit codes) stay
 * in the entry.
 *
 * ```ts
 * const service = await startServer(loadConfig({ PORT: '0', DATA_DIR: dir }), loadBuild('dist'));
 * await fetch(`${service.url}/api/v1/projects`);
 * await service.close();
 * ```
 */
export async function startServer(
  config: Config,
  build: Build,
  staticLimits: StaticFilesLimits = STATIC_FILES_LIMITS,
): Promise<RunningService> {
  const api = await createApi(config, build.projects, build.searchIndex);
  await api.services.quotas.ready();
  const statics = new StaticFiles(
    build.clientDir,
    builtFileHeaders(listBuiltFiles(build.clientDir), config),
    staticLimits,
  );
  const handle = serviceHandle(
    api,
    build.docs,
    (path) => build.pageTemplates[path],
    (name) => build.appViews[name],
  );
  const server = createServer(serverTimeouts(config.connections));
  const requestStarted = limitConnections(server, config.connections, config.trustProxy);
  const listener = createRequestListener({ config, handle, statics });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    requestStarted(request, response);
    listener(request, response);
  });

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
      const cut = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
      closeGently(server, { behindProxy: config.trustProxy > 0 }, () => {
        clearTimeout(cut);
        void api.services
          .close()
          .catch((error: unknown) => logError('close', error))
          .finally(resolve);
      });
    }));
  return { server, api, statics, url, port, close };
}
