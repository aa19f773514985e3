import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postContact, VALID } from '../support/contact.ts';
import { freePort } from '../support/free-port.ts';
import { ROOT } from '../support/server.ts';
import { startService, type InProcessService } from '../support/service.ts';
import { receiver, waitFor } from '../support/webhook.ts';

const run = promisify(execFile);
const SITE = 'http://localhost:4321';
let server: InProcessService;

beforeAll(async () => {
  server = await startService({ READ_RATE_LIMIT: '100000/60' });
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

describe('/developers/webhooks', () => {
  /** The page's receiver, run as a reader would run it, with `secret`; resolves once it answers. */
  async function startExampleReceiver(source: string, secret: string) {
    const dir = mkdtempSync(path.join(ROOT, 'node_modules/.webhook-example-'));
    scratch.push(dir);
    writeFileSync(path.join(dir, 'receiver.mjs'), source);
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(dir, 'receiver.mjs')], {
      env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = `http://127.0.0.1:${port}/`;
    await waitFor(
      () =>
        fetch(url, { method: 'POST', body: '' }).then(
          () => true,
          () => false,
        ),
      'the example to listen',
    );
    return { url, stdout: () => stdout, stop: () => child.kill() };
  }

  it('the verification example accepts a real signed delivery and refuses a wrong secret or a changed body', async () => {
    const [source] = codeBlocks('developers/webhooks.md', 'js');
    expect(source).toContain('timingSafeEqual');
    const secret = `whsec-${randomUUID()}`;
    const hook = await receiver(0);
    const portfolio = await startService({ NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_WEBHOOK_SECRET: secret });
    const right = await startExampleReceiver(source!, secret);
    const wrong = await startExampleReceiver(source!, 'not the secret');
    try {
      expect((await postContact(portfolio.baseUrl, { ...VALID, message: `Verify me ${randomUUID()}` })).status).toBe(
        200,
      );
      await hook.accepted(1);
      const [delivery] = hook.received;
      const replay = (url: string, body: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'portfolio-signature': String(delivery!.headers['portfolio-signature']),
          },
          body,
        }).then((response) => response.status);
      expect(await replay(right.url, delivery!.raw)).toBe(204);
      await waitFor(
        () => right.stdout().includes(`verified message ${String(delivery!.body.id)} from ${VALID.name}`),
        'the log line',
      );
      expect(await replay(wrong.url, delivery!.raw)).toBe(401);
      expect(await replay(right.url, delivery!.raw.replace('Verify me', 'Forged'))).toBe(401);
    } finally {
      right.stop();
      wrong.stop();
      await portfolio.stop();
      hook.close();
    }
  });
});
