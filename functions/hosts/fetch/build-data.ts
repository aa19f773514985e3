import type { PagePath } from '../../app/endpoints.ts';
import type { AppViewName } from '../../mcp/app-views.ts';
import type { DocPage } from '../../site/doc-page.ts';
import type { ProjectSource } from '../../projects/catalog.ts';
import type { BuildManifest } from '../static/build-manifest.ts';
import type { Build } from '../static/build-output.ts';

/**
 * What a function needs of `npm run build`, as values: a function bundle cannot count on reading
 * dist/ at run time (Cloudflare Workers have no file system; Netlify and Vercel ship only the
 * files their bundler saw imported), so a host's entry embeds these at bundle time, from the
 * same files loadBuild reads (functions/hosts/static/build-output.ts).
 */
export interface BuildData {
  projects: readonly ProjectSource[];
  docs: readonly DocPage[];
  /** The search index as the build wrote it (JSON). */
  searchIndex: string;
  /** The built HTML of each page the service fills in per request. */
  pageTemplates: Record<PagePath, string>;
  /** The built HTML of each MCP Apps view. */
  appViews: Record<AppViewName, string>;
  /** The build's manifest: the variables it baked in, checked against the function's own. */
  manifest: BuildManifest;
}

/** The function's part of a build read from dist/ (the node server's view of it, without the static files). */
export function buildDataOf({ projects, docs, searchIndex, pageTemplates, appViews, manifest }: Build): BuildData {
  return { projects, docs, searchIndex: searchIndex(), pageTemplates, appViews, manifest };
}
