/**
 * The most a built MCP Apps view may weigh, in bytes. A view is about 13 kB now (4.5 kB
 * gzipped): the pages' stylesheet, the markup and a 4 kB script with its hand-written host
 * bridge. Each view rides in every function bundle, so this catches a heavy import (ext-apps'
 * App class with zod brought each view to 430 kB) while leaving room for the views to grow.
 */
export const APP_VIEW_MAX_BYTES = 32 * 1024;
