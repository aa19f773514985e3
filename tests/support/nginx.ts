import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NGINX_SITE_FILE, nginxSiteForBuild } from '../../functions/hosts/nginx/site-for-build.ts';
import { freePort } from './free-port.ts';
import { ROOT } from './server.ts';

const run = promisify(execFile);
const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';
/** Debian's nginx (installed by .ci/run) and openssl, for a certificate of the test's own. */
export const HAS_NGINX = existsSync(NGINX) && existsSync(OPENSSL);
/** Debian's libnginx-mod-http-brotli-static (installed by .ci/run), which sends the build's `.br` files. */
const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
export const HAS_BROTLI_STATIC = existsSync(BROTLI_STATIC_MODULE);
/** The name the site is made for; its HTTP server redirects there. */
const SERVER_NAME = 'example.com';

/** A running nginx with the deploy site in front of a service. */
export interface RunningNginx {
  /** The site's port 80 server (the redirect), e.g. `http://127.0.0.1:34567`. */
  httpUrl: string;
  /** The site's TLS server. */
  httpsUrl: string;
  /** The self-signed certificate the TLS server presents, to trust in the test's clients. */
  ca: string;
  /** The nginx master's process; its workers are its children. */
  pid: number;
  /** The TLS server's port (plain HTTP with `plainHttp`). */
  sitePort: number;
  stop(): Promise<void>;
}

/** Replaces `pattern` in the site's text, insisting that it is there, so the generator and this stay in step. */
function substitute(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`the generated nginx site no longer matches ${pattern}`);
  return text.replace(pattern, replacement);
}

/**
 * The site `npm run build` writes for the build in dist/ (functions/hosts/nginx/site-for-build.ts),
 * made for example.com with the service's port, and with only what belongs to the machine swapped:
 * loopback ports for 80 and 443 (the IPv6 listeners dropped) and a certificate made for the test.
 * With two services, the site's second `server` line (commented out) is enabled for the second.
 */
function siteFor(
  dir: string,
  ports: { http: number; https: number; services: readonly number[] },
  plainHttp: boolean,
): string {
  let site = nginxSiteForBuild(path.join(ROOT, 'dist'), {
    serverName: SERVER_NAME,
    upstream: { host: '127.0.0.1', port: ports.services[0]! },
    brotli: HAS_BROTLI_STATIC,
  });
  site = substitute(site, /^\s*listen \[::\]:\d+.*$/gm, '');
  site = substitute(site, /^(\s*)listen 80;/m, `$1listen 127.0.0.1:${ports.http};`);
  site = plainHttp
    ? substitute(site, /^(\s*)listen 443 ssl http2;/m, `$1listen 127.0.0.1:${ports.https};`)
    : substitute(site, /^(\s*)listen 443 /m, `$1listen 127.0.0.1:${ports.https} `);
  // The second instance the site names, commented out, for a deployment of two.
  if (ports.services[1] !== undefined)
    site = substitute(site, /#server 127\.0\.0\.1:\d+/, `server 127.0.0.1:${ports.services[1]}`);
  site = substitute(site, /ssl_certificate \S+;/, `ssl_certificate ${dir}/cert.pem;`);
  return substitute(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${dir}/key.pem;`);
}

/**
 * The main configuration Debian's nginx.conf would be, reduced to the site and paths of the test's
 * own: the brotli module loaded as its modules-enabled/ does, sendfile on as it sets.
 */
function mainConfig(dir: string, site: string): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `${kind}_temp_path ${dir}/${kind}_temp;`,
  );
  return [
    ...(HAS_BROTLI_STATIC ? [`load_module ${BROTLI_STATIC_MODULE};`] : []),
    'worker_processes 1;',
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    'sendfile on;',
    `access_log ${dir}/access.log;`,
    ...temp,
    site,
    '}',
  ].join('\n');
}

/**
 * Starts nginx (the master as this process's child, `daemon off`) with the generated site: the
 * build's files served by nginx, the service's paths passed to the service listening on
 * `servicePort`, or to two instances on `[first, second]` (the site's second `server` line
 * enabled); `stop()` ends it by its pid. `plainHttp` serves the site's TLS server without TLS, for
 * the bench, which compares serving files with the service's, not TLS.
 */
export async function startNginx(
  servicePort: number | readonly [number, number],
  { plainHttp = false }: { plainHttp?: boolean } = {},
): Promise<RunningNginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-nginx-'));
  // Workers run as nginx's unprivileged user when started as root; they read and write in here.
  chmodSync(dir, 0o755);
  await run(OPENSSL, [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    ...['-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
  ]);
  const services = typeof servicePort === 'number' ? [servicePort] : servicePort;
  const ports = { http: await freePort(), https: await freePort(), services };
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, siteFor(dir, ports, plainHttp)));

  const nginx = spawn(
    NGINX,
    ['-e', `${dir}/error.log`, '-p', dir, '-c', conf, '-g', `daemon off; pid ${dir}/nginx.pid;`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  nginx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  const stop = () => {
    // SIGQUIT: a graceful stop of the master and its workers.
    if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGQUIT');
    return exited.then(() => rmSync(dir, { recursive: true, force: true }));
  };
  try {
    await waitForPort(ports.https, () => (nginx.exitCode === null ? null : `nginx exited: ${stderr}${errorLog(dir)}`));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    httpUrl: `http://127.0.0.1:${ports.http}`,
    httpsUrl: `https://127.0.0.1:${ports.https}`,
    ca: readFileSync(`${dir}/cert.pem`, 'utf8'),
    pid: nginx.pid!,
    sitePort: ports.https,
    stop,
  };
}

/** Debian's main configuration, which includes every enabled site and module. */
const DEBIAN_NGINX_CONF = '/etc/nginx/nginx.conf';
export const HAS_DEBIAN_NGINX_CONF = HAS_NGINX && existsSync(DEBIAN_NGINX_CONF);

/**
 * `nginx -t` on the site the build wrote (dist/nginx/portfolio.conf) as docs/deploy-vps.md installs
 * it: inside Debian's own nginx.conf (its mime.types, gzip on, the modules in modules-enabled/), in
 * place of sites-enabled, with only the certificate paths made the test's. Resolves with nginx's report.
 */
export async function checkInDebianConfig(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-nginx-t-'));
  try {
    await run(OPENSSL, [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=localhost', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
    ]);
    let site = readFileSync(path.join(ROOT, 'dist', NGINX_SITE_FILE), 'utf8');
    site = substitute(site, /ssl_certificate \S+;/, `ssl_certificate ${dir}/cert.pem;`);
    site = substitute(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${dir}/key.pem;`);
    writeFileSync(`${dir}/portfolio.conf`, site);
    let main = readFileSync(DEBIAN_NGINX_CONF, 'utf8');
    main = substitute(main, /include \/etc\/nginx\/sites-enabled\/\*;/, `include ${dir}/portfolio.conf;`);
    main = substitute(main, /^pid \S+;/m, `pid ${dir}/nginx.pid;`);
    writeFileSync(`${dir}/nginx.conf`, main);
    const { stderr } = await run(NGINX, ['-t', '-c', `${dir}/nginx.conf`]);
    return stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function errorLog(dir: string): string {
  return existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8') : '';
}

/** Resolves once something accepts connections on the port; `failed` names a reason to give up. */
async function waitForPort(port: number, failed: () => string | null): Promise<void> {
  // The deadline only catches an nginx that never listens: a busy machine may take long.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const reason = failed();
    if (reason !== null) throw new Error(reason);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/**
 * A `fetch` over HTTPS that trusts `ca` and connects from `localAddress` (any 127.0.0.0/8 address
 * reaches loopback), so that a test can be several clients. Enough of fetch for these tests and
 * the MCP SDK's transport: a string body, the whole answer buffered.
 */
export function clientFetch(ca: string, localAddress = '127.0.0.1') {
  return (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const outgoing = request(url, { method: init.method ?? 'GET', headers, ca, localAddress }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const status = incoming.statusCode ?? 0;
          const answerHeaders = new Headers();
          for (let i = 0; i < incoming.rawHeaders.length; i += 2)
            answerHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
          const body = [204, 304].includes(status) || init.method === 'HEAD' ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers: answerHeaders }));
        });
      });
      outgoing.on('error', reject);
      init.signal?.addEventListener('abort', () => outgoing.destroy(new Error('aborted')));
      outgoing.end(typeof init.body === 'string' ? init.body : undefined);
    });
}
