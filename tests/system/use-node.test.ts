import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NODE_VERSIONS, PRIMARY_MAJOR } from '../../scripts/fetch-node.mjs';
import { ROOT } from '../support/server.ts';

/**
 * `source scripts/use-node.sh` in a fresh bash: the pinned primary Node.js (fetched into the cache
 * unless there already) first on the PATH, npm pointed at its headers, quietly, and the same again
 * when sourced twice. The shell prints what it then sees, one value a line.
 */

const run = promisify(execFile);
const SHOW = ['node --version', 'echo "$npm_config_nodedir"', 'echo "${PATH%%:*}"', 'echo "$PATH"'].join('; ');

async function sourced(times: number): Promise<{ lines: string[]; stderr: string }> {
  const script = `${Array(times).fill('source scripts/use-node.sh').join('; ')}; ${SHOW}`;
  const { stdout, stderr } = await run('bash', ['-c', `set -euo pipefail; ${script}`], { cwd: ROOT });
  return { lines: stdout.trimEnd().split('\n'), stderr };
}

describe('source scripts/use-node.sh', () => {
  it('puts the pinned primary Node.js first on the PATH with npm_config_nodedir at its headers, printing nothing', async () => {
    const { lines, stderr } = await sourced(1);
    const [version, nodedir, first] = lines;
    expect(version).toBe(`v${NODE_VERSIONS[PRIMARY_MAJOR as keyof typeof NODE_VERSIONS]}`);
    expect(first).toBe(path.join(nodedir!, 'bin'));
    expect(existsSync(path.join(nodedir!, 'include', 'node', 'node_api.h'))).toBe(true);
    expect(stderr).toBe('');
  });

  it('changes nothing when sourced again', async () => {
    const once = await sourced(1);
    const twice = await sourced(2);
    expect(twice.lines).toEqual(once.lines);
  });
});
