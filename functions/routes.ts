import { batchHandler } from './batch/batch-handler.ts';
import { DEPRECATED_ALIASES, deprecationHeaders, type CurrentId, type DeprecatedAlias } from './deprecation.ts';
import { healthHandler } from './health.ts';
import { ApiError } from './http/api-error.ts';
import { contactHandler } from './contact/contact-handler.ts';
import type { Route, RouteHandler } from './http/router.ts';
import { createJobHandler, getJobStatusHandler } from './jobs/job-handlers.ts';
import { createKeyHandler } from './keys/key-handlers.ts';
import { tokenHandler } from './keys/token-handler.ts';
import { OPERATIONS, type OperationId } from './operations.ts';
import { getProjectHandler } from './projects/get-project.ts';
import { listProjectsHandler } from './projects/list-projects.ts';
import { sandboxPingHandler } from './sandbox-ping.ts';
import { searchHandler } from './search/search-handler.ts';
import type { Services } from './services.ts';

/**
 * The whole API surface: each operation of functions/operations.ts with its handler.
 * Method, path and quota come from that table, so routing and the docs cannot disagree.
 */
export function apiRoutes(services: Services): Route[] {
  const { catalog, quotas, config, jobs } = services;
  const listProjects = listProjectsHandler(catalog, services.cursors);
  const getProject = getProjectHandler(catalog);
  const search = searchHandler(services.search, config.siteUrl);
  const createContact = contactHandler(services.contact, quotas);
  const createJob = createJobHandler(jobs, config.siteUrl);
  const getJobStatus = getJobStatusHandler(jobs);
  const createKey = createKeyHandler(services.keys, quotas.limiter('anonymous', 'keys'));
  const issueToken = tokenHandler(services.keys);
  const health = healthHandler(services.db, catalog.records.length);
  const batch = batchHandler({
    db: services.db,
    catalog,
    getJob: (jobId, sandbox) => jobs.get(jobId, sandbox),
    readLimiter: (context) => quotas.limiter(context.tier, 'read'),
    maxOperations: config.batchMaxOperations,
  });

  const current: Record<CurrentId, RouteHandler> = {
    listProjects: (request) => listProjects(request),
    getProject: (request, params) => getProject(request, params.slug ?? ''),
    search: (request) => search(request),
    createContact: (request, _params, context) => createContact(request, context),
    batchOperations: (request, _params, context) => batch(request, context),
    createJob: (request, _params, context) => createJob(request, context),
    getJobStatus: (request, params, context) => getJobStatus(request, params.jobId ?? '', context),
    sandboxPing: (request, _params, context) => sandboxPingHandler(request, context),
    createKey: (request, _params, context) => createKey(request, context),
    issueToken: (request) => issueToken(request),
    getHealth: (request) => health(request),
  };
  const handlers: Record<OperationId, RouteHandler> = {
    ...current,
    ...Object.fromEntries(DEPRECATED_ALIASES.map((alias) => [alias.operationId, deprecated(alias, current[alias.successor])])),
  } as Record<OperationId, RouteHandler>;

  return (Object.keys(OPERATIONS) as OperationId[]).map((operationId) => {
    const spec = OPERATIONS[operationId];
    return { method: spec.method, path: spec.path, operationId, quota: 'quota' in spec ? spec.quota : undefined, handler: handlers[operationId] };
  });

  /** A deprecated alias answers like its successor, plus the deprecation headers (errors included). */
  function deprecated(alias: DeprecatedAlias, handler: RouteHandler): RouteHandler {
    return async (request, params, context) => {
      const successorPath = alias.successorPath.replace(/\{(\w+)\}/g, (_slot, name: string) => encodeURIComponent(params[name] ?? ''));
      const headers = deprecationHeaders(config.siteUrl, `${config.siteUrl}${successorPath}`);
      try {
        const response = await handler(request, params, context);
        Object.assign(response.headers, headers);
        return response;
      } catch (error) {
        if (error instanceof ApiError) Object.assign(error.headers, headers);
        throw error;
      }
    };
  }
}
