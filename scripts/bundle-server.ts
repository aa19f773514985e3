import { bundleServer } from '../functions/hosts/node/bundle.ts';

/** Part of `npm run build`: the Node server and the CLIs, compiled (functions/hosts/node/bundle.ts). */
await bundleServer();
process.stdout.write('bundle: dist/server/portfolio.mjs and the CLIs inbox, data-copy, backup, restore (.mjs)\n');
