// MCP Apps (the io.modelcontextprotocol/ui extension, @modelcontextprotocol/ext-apps): HTML views
// a host shows in a sandboxed iframe for the results of the product tools. Each view is built by
// Astro from the pages' components and stylesheet (src/pages/mcp-apps/), moved out of the static
// output by scripts/write-static-pages.ts, and read here through the host's AppViewReader.
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  registerAppResource,
  type McpUiAppResourceConfig,
} from '@modelcontextprotocol/ext-apps/server';
import { ResourceNotFoundError, type McpServer } from '@modelcontextprotocol/server';

/** The views, by name: their `ui://` URI, what a host lists and whether they ask for a border. */
export const APP_VIEWS = {
  'project-card': {
    title: 'Project card',
    description: "One project as a card: title, description, domain, year, stack and links (get_project's result).",
    prefersBorder: true,
  },
  'project-gallery': {
    title: 'Project gallery',
    description: 'The projects of list_projects as cards, filtered in place by domain and technology.',
    prefersBorder: false,
  },
  'project-comparison': {
    title: 'Project comparison',
    description: "compare_projects' result side by side: the shared stack, what each uses alone, domains and years.",
    prefersBorder: false,
  },
  'contact-form': {
    title: 'Contact form',
    description: "A form that sends the owner a message through submit_contact, and shows submit_contact's answer.",
    prefersBorder: true,
  },
} as const;

export type AppViewName = keyof typeof APP_VIEWS;

export const APP_VIEW_NAMES = Object.keys(APP_VIEWS) as AppViewName[];

/** The view's resource URI (ext-apps: a `ui://` URI the tool names in `_meta.ui.resourceUri`). */
export function appViewUri(name: AppViewName): string {
  return `ui://portfolio/${name}.html`;
}

/**
 * A tool's `_meta` naming its view: `ui.resourceUri`, and the flat key older hosts read (what
 * ext-apps' registerAppTool sets; these tools are served by tool-registry.ts, not registerTool).
 */
export function appToolMeta(name: AppViewName) {
  const uri = appViewUri(name);
  return { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri };
}

/**
 * Where Astro builds a view (src/pages/mcp-apps/<name>.astro), before the build moves it out of
 * the static output: a view is a resource of the MCP server, not a page of the site.
 */
export const APP_VIEW_BUILD_DIR = 'mcp-apps';

/** The built HTML of a view; each host reads it from its build (dist/apps/, or the bundle's data). */
export type AppViewReader = (name: AppViewName) => string | Promise<string>;

/**
 * What every view may reach: nothing outside its own document. Script, styles and images are
 * inline (data: URIs at most), so no connect, resource, frame or base-uri domain is declared, and
 * a host applies its strictest policy (ext-apps, McpUiResourceCsp: "empty or omitted = no
 * external connections"). The view talks to the server only through the host (callServerTool).
 */
const NO_OUTSIDE_ORIGINS = { connectDomains: [], resourceDomains: [] };

/** The `_meta.ui` of a view, on its resources/list entry and on the content resources/read returns. */
function appViewMeta(name: AppViewName) {
  return { ui: { csp: NO_OUTSIDE_ORIGINS, prefersBorder: APP_VIEWS[name].prefersBorder } };
}

/**
 * What the server declares for the extension (the extensions capability of SEP-2133, which the
 * ext-apps specification negotiates by): the one view type it serves.
 */
const APP_EXTENSION_CAPABILITY = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };

/**
 * Registers every view as a resource of the server, and declares the extension. Listing a view
 * needs no HTML (a server card is made by listing a server the build makes before the views
 * exist); a read calls `readView`, and without one says the view is not built here.
 */
export function registerAppViews(server: McpServer, readView: AppViewReader | undefined): void {
  for (const name of APP_VIEW_NAMES) {
    const uri = appViewUri(name);
    const { title, description } = APP_VIEWS[name];
    const config: McpUiAppResourceConfig = {
      title,
      description,
      mimeType: RESOURCE_MIME_TYPE,
      _meta: appViewMeta(name),
    };
    registerAppResource(server, name, uri, config, async () => {
      if (readView === undefined)
        throw new ResourceNotFoundError(uri, `The view ${uri} is not built into this server.`);
      return {
        contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await readView(name), _meta: appViewMeta(name) }],
      };
    });
  }
  server.server.registerCapabilities({ extensions: APP_EXTENSION_CAPABILITY });
}
