import { existsSync, readFileSync } from 'node:fs';
import { startNginx } from '../tests/support/nginx.ts';
import { cpuSeconds } from './load-client.ts';

/** The generated nginx site as a bench target: the build's files served by nginx, the service behind it. */
export interface NginxTarget {
  port: number;
  /** CPU time nginx has used so far (its master and its one worker), in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** The processes whose parent is `pid` (Linux), read from /proc. */
function childrenOf(pid: number): number[] {
  const listed = `/proc/${pid}/task/${pid}/children`;
  if (existsSync(listed))
    return readFileSync(listed, 'utf8')
      .split(' ')
      .filter((text) => text !== '')
      .map(Number);
  return [];
}

/**
 * Starts Debian's nginx as the tests do (tests/support/nginx.ts), with the site `npm run build`
 * writes in front of the service on `servicePort`, one worker process (as the service is one
 * process), and its TLS server on plain HTTP: the bench compares serving the files, not TLS.
 */
export async function startNginxTarget(servicePort: number): Promise<NginxTarget> {
  const nginx = await startNginx(servicePort, { plainHttp: true });
  return {
    port: nginx.sitePort,
    cpuSeconds: () => [nginx.pid, ...childrenOf(nginx.pid)].reduce((total, pid) => total + cpuSeconds(pid), 0),
    stop: nginx.stop,
  };
}
