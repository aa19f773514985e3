import { existsSync } from 'node:fs';
import path from 'node:path';
import { SCHEDULED_PATH, startNetlifyPreview } from '../functions/hosts/netlify/preview-server.ts';
import { builtSiteUrl } from '../functions/hosts/static/built-site-url.ts';
import { readOwnerEnv, requireDatabaseUrl } from '../functions/hosts/static/owner-env.ts';
import { runOwnerStep } from '../functions/hosts/static/owner-step.ts';
import { CHECKOUT as root, failOwnerCommand, ownerOptions } from './owner-command.ts';

/** Whether Netlify's own CLI is installed (it is about 350 MB, so not a dependency here). */
const netlifyOnPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .some((dir) => dir !== '' && existsSync(path.join(dir, 'netlify')));

const USAGE = `Usage: npm run preview:netlify [-- --build --port 8888 --ip 127.0.0.1 --env-file <file>]

The build (npm run build with DATABASE_URL set, so that it writes the Netlify functions) as
Netlify serves it, on this machine: dist/client by its _headers and _redirects, the service's
paths to the function bundle, with your .dev.vars (else .env; see .dev.vars.example) as the
functions' environment, so against your own database. ${SCHEDULED_PATH} runs the scheduled pass
once. With --build, it first does what Netlify's build does (npm run build && npm run migrate, as
netlify.toml says) with the same values, so nothing is typed twice. (functions/hosts/netlify/preview-server.ts)
${
  netlifyOnPath
    ? '\nNetlify CLI is installed: its own rehearsal is `netlify dev --offline --internal-disable-edge-functions`\n(without the last flag it downloads Deno for edge functions, and fails offline).'
    : '\nWith Netlify CLI installed, its own rehearsal is `netlify dev --offline --internal-disable-edge-functions`.'
}`;

const values = ownerOptions(USAGE, {
  port: { type: 'string', default: '8888' },
  ip: { type: 'string', default: '127.0.0.1' },
  'env-file': { type: 'string' },
  build: { type: 'boolean' },
});
try {
  const owner = readOwnerEnv(root, values['env-file']);
  requireDatabaseUrl(owner, 'npm run preview:netlify');
  if (values.build === true) {
    const env = { ...owner.env, NO_UPDATE_NOTIFIER: '1' };
    const notDone = 'nothing is served';
    runOwnerStep(
      root,
      'preview:netlify',
      { title: 'npm run build', command: 'npm', args: ['run', 'build'], env },
      notDone,
    );
    runOwnerStep(
      root,
      'preview:netlify',
      { title: 'npm run migrate', command: 'npm', args: ['run', 'migrate'], env },
      notDone,
    );
  }
  const siteUrl = owner.env.SITE_URL ?? builtSiteUrl(path.join(root, 'dist'));
  // The functions read process.env when they load, as on Netlify.
  Object.assign(process.env, owner.env, siteUrl === null ? {} : { SITE_URL: siteUrl });
  const preview = await startNetlifyPreview(path.join(root, 'dist'), { ip: values.ip, port: Number(values.port) });
  process.stdout.write(
    [
      `preview:netlify: the build and its functions as Netlify serves them, on ${preview.url}`,
      `  variables: ${owner.file ?? 'the environment (no .dev.vars or .env)'}${siteUrl === null ? '' : `; SITE_URL ${siteUrl}`}`,
      `  the scheduled pass: ${preview.url}${SCHEDULED_PATH}`,
      '',
    ].join('\n'),
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => void preview.close().then(() => process.exit(0)));
} catch (error) {
  failOwnerCommand('preview:netlify', error);
}
