import { batchHandler } from './batch/batch-handler.ts';
import { contactHandler } from './contact/contact-handler.ts';
import type { Route } from './http/router.ts';
import { createKeyHandler } from './keys/key-handlers.ts';
import { tokenHandler } from './keys/token-handler.ts';
import { getProjectHandler } from './projects/get-project.ts';
import { listProjectsHandler } from './projects/list-projects.ts';
import { sandboxPingHandler } from './sandbox-ping.ts';
import type { Services } from './services.ts';

/** The whole API surface, top to bottom: method, path, operation, handler. */
export function apiRoutes(services: Services): Route[] {
  const { catalog, quotas, config } = services;
  const listProjects = listProjectsHandler(catalog, services.cursors);
  const getProject = getProjectHandler(catalog);
  const createContact = contactHandler(services.contact, quotas);
  const createKey = createKeyHandler(services.keys, quotas.limiter('anonymous', 'keys'));
  const issueToken = tokenHandler(services.keys);
  const batch = batchHandler({
    db: services.db,
    catalog,
    getJob: () => undefined,
    readLimiter: (context) => quotas.limiter(context.tier, 'read'),
    maxOperations: config.batchMaxOperations,
  });

  return [
    {
      method: 'GET',
      path: '/api/v1/projects',
      operationId: 'listProjects',
      summary: 'List projects, a page at a time, optionally filtered by domain or stack',
      quota: 'read',
      handler: (request) => listProjects(request),
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{slug}',
      operationId: 'getProject',
      summary: 'Get one project by its slug',
      quota: 'read',
      handler: (request, params) => getProject(request, params.slug ?? ''),
    },
    {
      method: 'POST',
      path: '/api/v1/contact',
      operationId: 'createContact',
      summary: 'Send the owner a message (idempotent, rate limited per IP)',
      handler: (request, _params, context) => createContact(request, context),
    },
    {
      method: 'POST',
      path: '/api/v1/batch',
      operationId: 'batchOperations',
      summary: 'Run several read operations atomically against one snapshot',
      handler: (request, _params, context) => batch(request, context),
    },
    {
      method: 'GET',
      path: '/api/v1/sandbox/ping',
      operationId: 'sandboxPing',
      summary: 'Tell whether this request runs in sandbox mode',
      quota: 'read',
      handler: (request, _params, context) => sandboxPingHandler(request, context),
    },
    {
      method: 'POST',
      path: '/api/v1/keys',
      operationId: 'createKey',
      summary: 'Create a self-serve test API key (shown once)',
      handler: (request, _params, context) => createKey(request, context),
    },
    {
      method: 'POST',
      path: '/oauth/token',
      operationId: 'issueToken',
      summary: 'Exchange a keyId and key for a short-lived bearer token (OAuth 2.0 client credentials)',
      handler: (request) => issueToken(request),
    },
  ];
}
