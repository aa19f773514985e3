import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../functions/config/env-variables.ts';
import { loadConfig } from '../../functions/config/env.ts';
import { nginxSiteForBuild } from '../../functions/hosts/nginx/site-for-build.ts';
import { DRAIN_TIMEOUT_MS } from '../../functions/hosts/node/start-server.ts';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);
const UNIT_TEXT = readFileSync(path.join(ROOT, 'deploy/systemd/portfolio.service'), 'utf8');
const ENV_FILE_TEXT = readFileSync(path.join(ROOT, 'deploy/systemd/portfolio.env'), 'utf8');
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
/** Where systemd's %S points for a system service. */
const STATE_ROOT = '/var/lib';

/** Every `Key=value` of the unit, by key, in order (a key such as Environment may repeat). */
function settings(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match) found.set(match[1]!, [...(found.get(match[1]!) ?? []), match[2]!]);
  }
  return found;
}

/**
 * `systemd-analyze verify` on a copy of `text`. Outside a booted systemd it still loads the unit
 * and its dependencies and checks every setting, but it also requires ExecStart's program to exist:
 * the copy runs the Node.js of this test in place of /usr/bin/node, which a machine may not have.
 */
async function verify(text: string): Promise<{ code: number; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-unit-'));
  const unit = path.join(dir, 'portfolio.service');
  writeFileSync(unit, text.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
  return run(SYSTEMD_ANALYZE, ['verify', unit], { cwd: dir }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe('deploy/systemd/portfolio.service', () => {
  const unit = settings(UNIT_TEXT);

  it.skipIf(!existsSync(SYSTEMD_ANALYZE))('passes systemd-analyze verify without a warning', async () => {
    const { code, stderr } = await verify(UNIT_TEXT);
    expect(stderr.split('\n').filter((line) => line.includes('portfolio.service'))).toEqual([]);
    expect(code).toBe(0);
  });

  it.skipIf(!existsSync(SYSTEMD_ANALYZE))(
    'would be reported by that check with a misspelt or invalid setting',
    async () => {
      const broken = UNIT_TEXT.replace('Restart=on-failure', 'Restart=sometimes\nProtectKernelTunable=yes');
      const { stderr } = await verify(broken);
      expect(stderr).toContain("Unknown key 'ProtectKernelTunable'");
      expect(stderr).toContain('sometimes');
    },
  );

  it('runs the build from the checkout as a dedicated user, keeping state in its StateDirectory', () => {
    expect(unit.get('User')).toEqual(['portfolio']);
    expect(unit.get('WorkingDirectory')).toEqual(['/opt/portfolio']);
    expect(unit.get('ExecStart')).toEqual(['/usr/bin/node dist/server/portfolio.mjs']);
    expect(unit.get('StateDirectory')).toEqual(['portfolio']);
  });

  it('keeps DATA_DIR in the environment file the owner’s commands read, and names that file to the service', () => {
    // One file for the service and for `npm run inbox -- --env-file <file>`: DATA_DIR is there, not in the unit.
    expect((unit.get('Environment') ?? []).filter((line) => line.startsWith('DATA_DIR='))).toEqual([]);
    expect(ENV_FILE_TEXT).toMatch(new RegExp(`^DATA_DIR="${STATE_ROOT}/${unit.get('StateDirectory')![0]}"$`, 'm'));
    const envFile = unit.get('EnvironmentFile');
    expect(envFile).toEqual(['/etc/portfolio/portfolio.env']);
    expect(unit.get('Environment')).toContain(`PORTFOLIO_ENV_FILE=${envFile![0]}`);
  });

  it('starts after a PostgreSQL on the same machine, without pulling one in', () => {
    expect(unit.get('After')?.join(' ').split(/\s+/)).toContain('postgresql.service');
    expect(unit.get('Wants')?.join(' ') ?? '').not.toContain('postgresql');
    expect(unit.get('Requires')).toBeUndefined();
  });

  it('restarts after a failure, with a limit, and leaves the server time to drain on SIGTERM', () => {
    expect(unit.get('Restart')).toEqual(['on-failure']);
    expect(unit.get('StartLimitBurst')).toBeDefined();
    expect(unit.get('KillSignal')).toEqual(['SIGTERM']);
    const stopSeconds = Number(/^(\d+)s$/.exec(unit.get('TimeoutStopSec')?.[0] ?? '')?.[1]);
    // The drain, and after it the entry's own deadline (20 s after the signal), come before SIGKILL.
    expect(stopSeconds).toBeGreaterThan(DRAIN_TIMEOUT_MS / 1000);
    expect(stopSeconds).toBeGreaterThan(20);
  });

  it('is hardened, leaving out MemoryDenyWriteExecute (V8 compiles code into writable memory)', () => {
    for (const setting of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'PrivateDevices=yes',
      'ProtectKernelTunables=yes',
      'ProtectKernelModules=yes',
      'ProtectKernelLogs=yes',
      'ProtectControlGroups=yes',
      'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX',
      'RestrictNamespaces=yes',
      'LockPersonality=yes',
      'SystemCallFilter=@system-service',
      'CapabilityBoundingSet=',
    ]) {
      const [key, value] = setting.split(/=(.*)/) as [string, string];
      expect(unit.get(key), key).toEqual([value]);
    }
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('sets, with its example environment file, a configuration the server accepts: behind one proxy, state in /var/lib', () => {
    const environment = (unit.get('Environment') ?? []).map((line) => line.replace('%S', STATE_ROOT));
    // The example file's settings, those commented out too: each must be a variable the service reads.
    const exampleLines = ENV_FILE_TEXT.split('\n')
      .map((line) => /^#?([A-Z_]+)="(.*)"$/.exec(line))
      .filter((match) => match !== null);
    expect(exampleLines.length).toBeGreaterThan(3);
    for (const [, name] of exampleLines) expect(Object.keys(ENV_VARIABLES), name).toContain(name);

    const env = Object.fromEntries([
      ...environment.map((line) => line.split(/=(.*)/).slice(0, 2)),
      ...exampleLines.map(([, name, value]) => [name, value]),
    ]) as Record<string, string>;
    const config = loadConfig(env);
    expect(config.dataDir).toBe('/var/lib/portfolio');
    expect(config.host).toBe('127.0.0.1');
    // The nginx site the build writes passes the service's paths to the unit's address.
    const nginxSite = nginxSiteForBuild(path.join(ROOT, 'dist'));
    expect(nginxSite).toMatch(new RegExp(`^\\s*server ${config.host.replace(/\./g, '\\.')}:${config.port}[ ;]`, 'm'));
    expect(loadConfig(Object.fromEntries(environment.map((line) => line.split(/=(.*)/)))).trustProxy).toBe(1);
  });
});
