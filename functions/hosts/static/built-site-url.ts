import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_MANIFEST_FILE, type BuildManifest } from './build-manifest.ts';

/**
 * The SITE_URL a build was made for, as its manifest records it (scripts/write-build-manifest.ts),
 * or null without a build. A rehearsal or a deploy gives the functions this value unless the
 * owner's file says otherwise, so that the pages and the functions name one address.
 */
export function builtSiteUrl(dist: string): string | null {
  const file = path.join(dist, BUILD_MANIFEST_FILE);
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
  return manifest.environment.SITE_URL ?? null;
}
