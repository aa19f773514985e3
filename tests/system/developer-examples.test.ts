import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

const run = promisify(execFile);
const SITE = 'http://localhost:4321';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ READ_RATE_LIMIT: '100000/60' });
});
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  await server.stop();
});

/** The fenced blocks of one language in a published Markdown page, pointed at the test server. */
function codeBlocks(page: string, language: string): string[] {
  const markdown = readFileSync(path.join(ROOT, 'dist/client', page), 'utf8');
  return [...markdown.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) =>
    m[1]!.replaceAll(SITE, server.baseUrl),
  );
}

describe('/developers/cli', () => {
  it('every shell block runs successfully against a live server', async () => {
    const blocks = codeBlocks('developers/cli.md', 'sh');
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) {
      const result = await run('bash', ['-euo', 'pipefail', '-c', block], { timeout: 90_000 }).catch(
        (error: { stderr: string; code: number }) => error,
      );
      expect('code' in result ? `exit ${result.code}: ${result.stderr}\n${block}` : 'ok').toBe('ok');
    }
  }, 600_000);
});

describe('/developers/sdk', () => {
  it('generates types from the published description, and the example type-checks and runs', async () => {
    // Inside node_modules so the example resolves openapi-fetch like a user's project would.
    const dir = mkdtempSync(path.join(ROOT, 'node_modules/.sdk-example-'));
    scratch.push(dir);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const [install, example] = codeBlocks('developers/sdk.md', '(?:sh|ts)');
    expect(install).toContain('openapi-typescript');
    await run(process.execPath, [
      path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
      `${server.baseUrl}/openapi.json`,
      '-o',
      path.join(dir, 'portfolio-api.d.ts'),
    ]);
    writeFileSync(path.join(dir, 'example.ts'), example!);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'esnext',
          target: 'es2022',
          moduleResolution: 'bundler',
          lib: ['es2022', 'dom'],
          skipLibCheck: true,
        },
        files: ['example.ts'],
      }),
    );
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]);
    writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(dir, 'example.ts')], { cwd: ROOT });
    expect(stdout).toContain('fika-booking');
    expect(stdout.trim().endsWith('true')).toBe(true);
  });
});
