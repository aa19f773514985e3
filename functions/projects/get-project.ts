import { ApiError } from '../http/api-error.ts';
import { conditionalJson, representation, type Representation } from '../http/json.ts';
import { strictQuery } from '../http/query.ts';
import type { RouteHandler } from '../http/router.ts';
import type { Catalog } from './catalog.ts';
import { slugParameter } from './schema.ts';

/**
 * getProject: the same Project object the list returns. An unknown slug is a 404 problem
 * document (RFC 9457; see `problem` in http/error-codes.ts). The slug is echoed only when it is a well-formed slug, so
 * markup or control characters in the path never come back.
 */
export function getProjectHandler(catalog: Catalog): RouteHandler {
  const representations = new Map<string, Representation>(
    catalog.records.map(({ project }) => [project.slug, representation(project)]),
  );

  return (request, { slug = '' }) => {
    strictQuery(request.query, []);
    const found = representations.get(slug);
    if (found === undefined) {
      const wellFormed = slugParameter.safeParse(slug).success;
      throw new ApiError(
        'project_not_found',
        wellFormed ? `No project has the slug "${slug}".` : 'No project has this slug.',
        {
          hint: 'List the slugs with GET /api/v1/projects.',
        },
      );
    }
    return conditionalJson(request, found);
  };
}
