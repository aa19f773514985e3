import type { Route } from './http/router.ts';
import type { Services } from './services.ts';
import { getProjectHandler } from './projects/get-project.ts';
import { listProjectsHandler } from './projects/list-projects.ts';
import { contactHandler } from './contact/contact-handler.ts';

/** The whole API surface, top to bottom: method, path, operation, handler. */
export function apiRoutes(services: Services): Route[] {
  const listProjects = listProjectsHandler(services.catalog, services.cursors);
  const getProject = getProjectHandler(services.catalog);
  const createContact = contactHandler(services.contact);
  return [
    {
      method: 'GET',
      path: '/api/v1/projects',
      operationId: 'listProjects',
      summary: 'List projects, a page at a time, optionally filtered by domain or stack',
      quota: services.readLimiter,
      handler: (request) => listProjects(request),
    },
    {
      method: 'GET',
      path: '/api/v1/projects/{slug}',
      operationId: 'getProject',
      summary: 'Get one project by its slug',
      quota: services.readLimiter,
      handler: (request, params) => getProject(request, params.slug ?? ''),
    },
    {
      method: 'POST',
      path: '/api/v1/contact',
      operationId: 'createContact',
      summary: 'Send the owner a message (idempotent, rate limited per IP)',
      handler: (request) => createContact(request),
    },
  ];
}
