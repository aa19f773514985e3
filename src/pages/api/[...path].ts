import { routerBridge } from '../../lib/api-bridge.ts';

/** Every /api path under `astro dev` (see src/lib/api-bridge.ts). */
export const prerender = false;
export const ALL = routerBridge;
