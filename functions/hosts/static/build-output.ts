import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DocPage } from '../../site/doc-page.ts';
import type { ProjectSource } from '../../projects/catalog.ts';
import { BUILD_MANIFEST_FILE, type BuildManifest } from './build-manifest.ts';
import type { PagePath } from '../../app/endpoints.ts';
import { APP_VIEW_NAMES, type AppViewName } from '../../mcp/app-views.ts';

/**
 * Where the build keeps the pages the service fills in per request (their `{{slots}}`), outside
 * the static output: there, /contact and /search are the same pages with every slot empty, which
 * a static host serves as they are (scripts/write-static-pages.ts).
 */
export function pageTemplateFile(distDir: string, page: PagePath): string {
  return path.join(distDir, 'templates', `${page.slice(1)}.html`);
}

/**
 * Where the build keeps the MCP Apps views (functions/mcp/app-views.ts), outside the static
 * output: each is a resource of the product MCP server, never a page of the site.
 */
export function appViewFile(distDir: string, name: AppViewName): string {
  return path.join(distDir, 'apps', `${name}.html`);
}

/** What `npm run build` made that the server serves: the prerendered files and the data behind the API. */
export interface Build {
  /** The prerendered pages and documents (dist/client), with their `.br`/`.gz` variants. */
  clientDir: string;
  projects: ProjectSource[];
  docs: DocPage[];
  /** Reads the search index as the build wrote it (JSON); the file is read when asked for, not with the rest. */
  searchIndex: () => string;
  /** The built HTML of each page the service fills in per request. */
  pageTemplates: Record<PagePath, string>;
  /** The built HTML of each MCP Apps view. */
  appViews: Record<AppViewName, string>;
  manifest: BuildManifest;
}

/** Thrown when the build output is missing or unreadable; the message says what to run. */
export class BuildMissing extends Error {
  constructor(distDir: string) {
    super(`No build found in ${distDir}. Run \`npm run build\` first (\`npm start\` builds when needed).`);
    this.name = 'BuildMissing';
  }
}

/** A file that must be there now, read when asked for (each time: the caller keeps what it made of it). */
function fileReader(file: string): () => string {
  accessSync(file, constants.R_OK);
  return () => readFileSync(file, 'utf8');
}

/** Reads the build output under `distDir` (the folder holding client/ and the manifest). */
export function loadBuild(distDir: string): Build {
  const clientDir = path.join(distDir, 'client');
  try {
    const json = <T>(file: string) => JSON.parse(readFileSync(path.join(distDir, file), 'utf8')) as T;
    return {
      clientDir,
      projects: json<{ projects: ProjectSource[] }>('client/portfolio.json').projects,
      docs: json<{ docs: DocPage[] }>('client/docs.json').docs,
      searchIndex: fileReader(path.join(clientDir, 'search-index.json')),
      pageTemplates: {
        '/contact': readFileSync(pageTemplateFile(distDir, '/contact'), 'utf8'),
        '/search': readFileSync(pageTemplateFile(distDir, '/search'), 'utf8'),
      },
      appViews: Object.fromEntries(
        APP_VIEW_NAMES.map((name) => [name, readFileSync(appViewFile(distDir, name), 'utf8')]),
      ) as Record<AppViewName, string>,
      manifest: json<BuildManifest>(BUILD_MANIFEST_FILE),
    };
  } catch {
    throw new BuildMissing(distDir);
  }
}
