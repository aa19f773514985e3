import { spawn } from 'node:child_process';
import { cloudflarePreview } from '../functions/hosts/cloudflare/preview.ts';
import { CHECKOUT as root, failOwnerCommand, ownerOptions } from './owner-command.ts';

const USAGE = `Usage: npm run preview:cloudflare [-- --port 8787 --ip 127.0.0.1 --env-file <file>]

The built Worker and pages (CF_PAGES=1 npm run build) in workerd on this machine, offline, with
your .dev.vars (else .env; see .dev.vars.example) as its variables: a rehearsal against your own
database before \`npm run deploy:cloudflare\`. (functions/hosts/cloudflare/preview.ts)`;

const values = ownerOptions(USAGE, {
  port: { type: 'string', default: '8787' },
  ip: { type: 'string', default: '127.0.0.1' },
  'env-file': { type: 'string' },
});
try {
  const { run, lines } = cloudflarePreview(root, {
    ip: values.ip,
    port: Number(values.port),
    ...(values['env-file'] === undefined ? {} : { envFile: values['env-file'] }),
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  const child = spawn(run.command, run.args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...run.env } });
  // wrangler stops workerd itself on SIGINT and SIGTERM.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} catch (error) {
  failOwnerCommand('preview:cloudflare', error);
}
