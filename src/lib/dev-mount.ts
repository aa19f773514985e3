import type { AstroIntegration } from 'astro';
import type { serveInDev } from './dev-service.ts';

/** Loaded through Vite on each request, so it sees the content collections and edits to its modules. */
const DEV_SERVICE = '/src/lib/dev-service.ts';

/**
 * Mounts the production service in front of `astro dev` (src/lib/dev-service.ts), as a connect
 * middleware that sees the raw node request: Astro hands its own middleware prerendered routes
 * without headers or query, and every route here is prerendered.
 */
export function devService(): AstroIntegration {
  return {
    name: 'portfolio-dev-service',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, res, next) => {
          // The dev server's own port, as the request that came in on it says.
          const origin = `http://127.0.0.1:${req.socket.localPort}`;
          server
            .ssrLoadModule(DEV_SERVICE)
            .then((module) => (module as { serveInDev: typeof serveInDev }).serveInDev(req, res, next, origin))
            .catch(next);
        });
      },
    },
  };
}
