import { routerBridge } from '../../lib/api-bridge.ts';

/** The OAuth token endpoint under `astro dev` (see src/lib/api-bridge.ts). */
export const prerender = false;
export const ALL = routerBridge;
