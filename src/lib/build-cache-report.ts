import type { AstroIntegration } from 'astro';
import { buildCacheCounts, buildCacheDir } from './build-cache.ts';

/**
 * Says at the end of `astro build` how many Open Graph images were drawn and how many were read
 * back from the build cache (src/lib/build-cache.ts): after editing one project, one is drawn.
 */
export function buildCacheReport(): AstroIntegration {
  return {
    name: 'build-cache-report',
    hooks: {
      'astro:build:done': ({ logger }) => {
        const { made, reused } = buildCacheCounts('og');
        logger.info(`Open Graph images: ${made} drawn, ${reused} from the build cache (${buildCacheDir('og')})`);
      },
    },
  };
}
