import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInbox } from '../support/contact.ts';
import { connectMcp } from '../support/mcp.ts';
import { ASTRO_CLI, freshDataDir, ROOT } from '../support/server.ts';

/**
 * `npm run dev` serves what production serves (src/lib/dev-mount.ts): the contact form's plain
 * post, the server-filled search page and the MCP servers, not just the pages.
 */
/**
 * This environment without the variable Vitest sets: `astro dev` run under VITEST leaves out its
 * page server (Astro 7 expects to be embedded in a test runner then), which no owner's shell does.
 */
function ownerEnvironment(): NodeJS.ProcessEnv {
  const { VITEST: _underVitest, ...env } = process.env;
  return env;
}

let dev: ChildProcess;
let baseUrl: string;
const dataDir = freshDataDir();

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // Its own process group, so stopping it stops Vite's helpers too.
  dev = spawn(process.execPath, [ASTRO_CLI, 'dev', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { ...ownerEnvironment(), DATA_DIR: dataDir, PORT: String(port), CONTACT_MIN_FILL_SECONDS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (;;) {
    if (dev.exitCode !== null) throw new Error(`astro dev exited: ${output}`);
    // Any status: the service answers; only a refused connection means not yet.
    try {
      await fetch(`${baseUrl}/api/health`);
      break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  if (dev?.pid === undefined || dev.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.once('exit', resolve));
  process.kill(-dev.pid, 'SIGTERM');
  await exited;
});

describe('astro dev mounts the production service', () => {
  it('takes a plain form post on /contact and stores the message', async () => {
    const form = await (await fetch(`${baseUrl}/contact`)).text();
    expect(form).not.toContain('{{');
    const token = /name="idempotency_key" value="([^"]+)"/.exec(form)?.[1];
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const body = new URLSearchParams({
      idempotency_key: token!,
      form_token: /name="form_token" value="([^"]+)"/.exec(form)?.[1] ?? '',
      name: 'Dev Visitor',
      email: 'dev@example.com',
      message: 'Sent to the dev server by a plain form.',
    });
    const posted = await fetch(`${baseUrl}/contact`, {
      method: 'POST',
      body,
      redirect: 'manual',
      headers: { origin: baseUrl },
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/contact/thanks');
    const inbox = await readInbox(dataDir);
    expect(inbox.map((entry) => entry.name)).toContain('Dev Visitor');
  });

  it('shows a failed post again with its problems, filled in', async () => {
    const body = new URLSearchParams({
      idempotency_key: crypto.randomUUID(),
      name: '',
      email: 'not an email',
      message: 'Hi',
    });
    const page = await fetch(`${baseUrl}/contact`, { method: 'POST', body });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).not.toContain('{{');
    expect(html).toContain('aria-invalid="true"');
  });

  it('fills the search page on the server', async () => {
    const page = await fetch(`${baseUrl}/search?q=rust`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('{{');
    expect(html).toMatch(/\d+ results? for “rust”/);
    expect(html).toContain('class="search-result"');
  });

  it('answers MCP tools/list on /mcp, and reads an MCP Apps view as Astro renders it now', async () => {
    const client = await connectMcp(`${baseUrl}/mcp`);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('list_projects');
      const { contents } = await client.readResource({ uri: 'ui://portfolio/project-card.html' });
      expect(contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
      expect((contents[0] as { text: string }).text).toContain('<template id="project-card">');
    } finally {
      await client.close();
    }
  });
});
