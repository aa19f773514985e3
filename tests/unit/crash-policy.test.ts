import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

/** Runs the child and returns its exit code and log lines. */
function runChild(): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tests/support/crash-policy-child.ts'],
      { cwd: ROOT },
      (error, stdout) => {
        const lines = stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), lines });
      },
    );
  });
}

describe('the crash policy', () => {
  it('logs an unhandled rejection and serves on; an uncaught exception is logged, then drains and exits 1', async () => {
    const { code, lines } = await runChild();
    expect(lines.map((line) => line.event ?? line.message)).toEqual([
      'unhandledRejection',
      'still serving',
      'uncaughtException',
      'draining',
    ]);
    expect(lines[0]).toMatchObject({
      level: 'error',
      requestId: 'process',
      error: 'nobody awaited this',
      exits: false,
    });
    expect(lines[0]!.stack).toContain('crash-policy-child.ts');
    expect(lines[2]).toMatchObject({ level: 'error', requestId: 'process', error: 'thrown from a timer', exits: true });
    expect(lines[3]).toMatchObject({ reason: 'uncaughtException', exitCode: 1 });
    expect(code).toBe(1);
  });
});
