import { serviceUrl } from '../config/public-urls.ts';
import { apiIndexHandler } from '../service/api-index.ts';
import { batchHandler } from '../batch/batch-handler.ts';
import { contactHandler } from '../contact/contact-handler.ts';
import {
  deprecatedAliases,
  deprecationHeaders,
  type CurrentId,
  type DeprecatedAlias,
} from '../operations/deprecation.ts';
import { healthHandler } from '../service/health.ts';
import { ApiError } from '../http/api-error.ts';
import type { Route, RouteHandler } from '../http/router.ts';
import { createJobHandler, getJobStatusHandler } from '../jobs/job-handlers.ts';
import { createKeyHandler } from '../keys/key-handlers.ts';
import { tokenHandler } from '../keys/token-handler.ts';
import { OPERATIONS, type OperationId } from '../operations/operations.ts';
import { getProjectHandler } from '../projects/get-project.ts';
import { listProjectsHandler } from '../projects/list-projects.ts';
import { sandboxPingHandler } from '../service/sandbox-ping.ts';
import { searchHandler } from '../search/search-handler.ts';
import type { Services } from './services.ts';

/**
 * The whole API surface: each operation of functions/operations/operations.ts with its handler.
 * Method, path and quotas come from that table, so routing and the docs cannot disagree.
 */
export function apiRoutes(services: Services): Route[] {
  const { catalog, config, jobs } = services;
  const handlers: Record<CurrentId, RouteHandler> = {
    listProjects: listProjectsHandler(catalog, {
      current: () => services.signing.current?.cursors,
      load: () => services.signing.load().then((signers) => signers.cursors),
    }),
    getProject: getProjectHandler(catalog),
    search: searchHandler(services.search, config.siteUrl),
    createContact: contactHandler(services.contact),
    batchOperations: batchHandler({
      catalog,
      getJobs: (jobIds, sandbox) => jobs.getMany(jobIds, sandbox),
      maxOperations: config.batchMaxOperations,
    }),
    createJob: createJobHandler(jobs, config),
    getJobStatus: getJobStatusHandler(jobs),
    sandboxPing: sandboxPingHandler,
    createKey: createKeyHandler(services.keys),
    issueToken: tokenHandler(services.keys),
    getApiIndex: apiIndexHandler(config),
    getHealth: healthHandler(() => services.storage.ping(), catalog.records.length),
  };
  const aliases = new Map(deprecatedAliases().map((alias) => [alias.operationId as OperationId, alias]));

  return (Object.keys(OPERATIONS) as OperationId[]).map((operationId) => {
    const spec = OPERATIONS[operationId];
    const alias = aliases.get(operationId);
    const handler =
      alias === undefined ? handlers[operationId as CurrentId] : deprecated(alias, handlers[alias.successor]);
    return {
      method: spec.method,
      path: spec.path,
      operationId,
      quota: 'quota' in spec ? spec.quota : undefined,
      handler,
    };
  });

  /** A deprecated alias answers like its successor, plus the deprecation headers (errors included). */
  function deprecated(alias: DeprecatedAlias, handler: RouteHandler): RouteHandler {
    return async (request, params, context) => {
      const successorPath = alias.successorPath.replace(/\{(\w+)\}/g, (_slot, name: string) =>
        encodeURIComponent(params[name] ?? ''),
      );
      const headers = deprecationHeaders(config.siteUrl, serviceUrl(config, successorPath));
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
