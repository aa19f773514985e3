/**
 * The site's icon, as MCP clients, registries and catalogs show it: PNG renderings of the site
 * icon (public/favicon.svg) made at build. Every document that names an icon takes this one list:
 * the servers' `serverInfo`, both server cards, the registry's server.json and the AI Catalog.
 */

/** The drawing every size is rendered from: the site icon the pages already use. */
export const ICON_SOURCE = '/favicon.svg';

/**
 * The square sizes clients ask for: 48 and 96 (the examples of the MCP `Icon.sizes` and of the
 * registry's server.json schema), 192 and 512 (what web app manifests and launchers ask for).
 * PNG only: every client that renders icons MUST support image/png (MCP 2025-11-25, `Icon`),
 * while an SVG asks the client for precautions against script.
 */
export const ICON_SIZES = [48, 96, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** Where the build writes the icon of one size, a stable path under the site. */
export function iconPath(size: IconSize): string {
  return `/icons/icon-${size}.png`;
}

/** An icon as MCP 2025-11-25 `Icon` describes it, and the registry's server.json and the server cards repeat. */
export interface SiteIcon {
  src: string;
  mimeType: 'image/png';
  sizes: string[];
}

/** Every size of the site icon, smallest first, by absolute URL. */
export function siteIcons(siteUrl: string): SiteIcon[] {
  return ICON_SIZES.map((size) => ({
    src: `${siteUrl}${iconPath(size)}`,
    mimeType: 'image/png',
    sizes: [`${size}x${size}`],
  }));
}

/** The largest icon's URL: the AI Catalog's one `logoUrl`. */
export function largestIconUrl(siteUrl: string): string {
  return `${siteUrl}${iconPath(ICON_SIZES[ICON_SIZES.length - 1]!)}`;
}
