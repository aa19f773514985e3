import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

const run = promisify(execFile);

describe('the log in batches', () => {
  it('writes every line once, whole and in order, whatever its length or characters, the last ones at exit', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'tests/support/log-batches-child.ts'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { requestId?: string; path?: string; message?: string; detail?: string });
    expect(lines).toHaveLength(3001);
    expect(lines[1500]).toMatchObject({ message: 'a long one', detail: 'é'.repeat(20_000) });
    const access = [...lines.slice(0, 1500), ...lines.slice(1501)];
    access.forEach((entry, n) => {
      expect(entry.requestId).toBe(`req-${n}`);
      expect(entry.path).toBe(n % 7 === 0 ? `/projects/ångström-${n}-€-𝄞` : `/api/v1/projects/${n}`);
    });
  });
});
