import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VIEW_MAX_BYTES } from '../support/app-view-budget.ts';
import { launchChromium, watchedPage } from '../support/browser.ts';
import { storedInbox } from '../support/contact.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

// Each MCP Apps view (functions/mcp/app-views.ts) shown by a real host: the page below, on the
// server's own origin, runs tests/support/mcp-apps-host.ts (an MCP client and ext-apps'
// AppBridge) and shows the view of each tool call in the double-iframe sandbox: the proxy
// (tests/support/mcp-apps-sandbox.ts) on another origin, the view in a sandboxed frame inside it.
// Screenshots of each view go to MCP_APPS_SCREENSHOTS (docs/screenshots when the docs are refreshed).

let server: RunningServer;
let browser: Browser;
let hostScript: string;
let sandboxScript: string;

/** Where the host page is served from: a path of the server's origin that the server itself never answers. */
const HOST_PAGE = '/__mcp-apps-host';
/** The sandbox proxy's page, on another origin (the server's port under the name localhost). */
const sandboxUrl = () => `${server.baseUrl.replace('127.0.0.1', 'localhost')}/__mcp-apps-sandbox`;

/** A test page's script, bundled for the browser. */
async function bundle(file: string, define: Record<string, string> = {}): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [path.join(ROOT, 'tests/support', file)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    define,
    logLevel: 'warning',
  });
  return outputFiles[0]!.text;
}

/** A page of the test's own, answered by the browser context instead of the server. */
function testPage(title: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>html,body{margin:0;height:100%}iframe{width:100%;display:block}</style></head><body><script>${script}</script></body></html>`;
}
const SCREENSHOTS = process.env.MCP_APPS_SCREENSHOTS;

beforeAll(async () => {
  [server, browser, sandboxScript] = await Promise.all([
    startServer({ READ_RATE_LIMIT: '10000/60', CONTACT_MIN_FILL_SECONDS: '0' }),
    launchChromium(),
    bundle('mcp-apps-sandbox.ts'),
  ]);
  hostScript = await bundle('mcp-apps-host.ts', { SANDBOX_URL: JSON.stringify(sandboxUrl()) });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Shown {
  uri: string;
  mimeType: string;
  csp: unknown;
  prefersBorder: boolean;
  htmlBytes: number;
}

/** The host page with the tool's view shown; the view's frame, and any console error in either document. */
async function show(
  tool: string,
  args: Record<string, unknown>,
  call = true,
): Promise<{ page: Page; view: FrameLocator; shown: Shown; problems: string[] }> {
  const { page, problems } = await watchedPage(browser, true);
  await page.setViewportSize({ width: 900, height: 700 });
  await page.route(`${server.baseUrl}${HOST_PAGE}`, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: testPage('Host', hostScript) }),
  );
  await page.route(sandboxUrl(), (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: testPage('Sandbox', sandboxScript) }),
  );
  await page.goto(`${server.baseUrl}${HOST_PAGE}`);
  const shown = await page.evaluate(
    ([name, input, withCall]) =>
      (globalThis as unknown as { showTool: (...a: unknown[]) => Promise<Shown> }).showTool(name, input, withCall),
    [tool, args, call] as const,
  );
  return { page, view: page.frameLocator('iframe').frameLocator('iframe'), shown, problems };
}

/**
 * Console errors but Chromium's note on the 405 the server answers the client's GET /mcp with:
 * a 2025 client asks for a standalone event stream, which a stateless server does not offer
 * (streamable-http, "Listening for Messages from the Server").
 */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !problem.includes('status of 405 (Method Not Allowed)'));
}

/**
 * The host's viewport with the view in it, once the view has painted what it rendered (its frame
 * lives in a process of its own, an opaque origin, and repaints after the host resizes it).
 */
async function screenshot(page: Page, view: FrameLocator, name: string): Promise<void> {
  if (SCREENSHOTS === undefined) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  await view.locator('body').evaluate(painted);
  await page.evaluate(painted);
  await page.screenshot({ path: path.join(SCREENSHOTS, `app-${name}.png`) });
}

async function projects(): Promise<{ slug: string; title: string; stack: string[]; domain: string }[]> {
  const body = (await (await fetch(`${server.baseUrl}/api/v1/projects?limit=100`)).json()) as {
    data: { slug: string; title: string; stack: string[]; domain: string }[];
  };
  return body.data;
}

describe('MCP Apps views in a sandboxed host', () => {
  it("get_project: the card shows the project's title, description, stack and links", async () => {
    const [project] = await projects();
    const { page, view, shown, problems } = await show('get_project', { slug: project!.slug });
    expect(shown).toMatchObject({
      uri: 'ui://portfolio/project-card.html',
      mimeType: 'text/html;profile=mcp-app',
      csp: { connectDomains: [], resourceDomains: [] },
    });
    // The view as the host read it over MCP, within its budget (the built files: tests/api/mcp-apps.test.ts).
    expect(shown.htmlBytes).toBeLessThan(APP_VIEW_MAX_BYTES);
    await expect.poll(() => view.locator('.project-card__title').textContent()).toBe(project!.title);
    expect(await view.locator('#stack li').allTextContents()).toEqual(project!.stack);
    expect(await view.getByRole('link', { name: 'Project page' }).getAttribute('href')).toMatch(
      new RegExp(`/projects/${project!.slug}$`),
    );
    await screenshot(page, view, 'project-card');
    // A sandboxed view cannot navigate: its links go to the host (ui/open-link).
    await view.getByRole('link', { name: project!.title }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { openedLinks: string[] }).openedLinks))
      .toEqual([expect.stringMatching(new RegExp(`/projects/${project!.slug}$`))]);
    // The view told the host its size (ui/notifications/size-changed), and the host sized its frame to it.
    const { size, frameHeight } = await page.evaluate(() => ({
      size: (globalThis as unknown as { reportedSizes: { width: number; height: number }[] }).reportedSizes.at(-1),
      frameHeight: document.querySelector('iframe')?.style.height,
    }));
    expect(size).toEqual({ width: expect.any(Number), height: expect.any(Number) });
    expect(size!.height).toBeGreaterThan(100);
    expect(frameHeight).toBe(`${size!.height}px`);
    // A cancelled call is said in the status line, with the host's reason.
    await page.evaluate(() =>
      (globalThis as unknown as { cancelTool: (reason: string) => Promise<void> }).cancelTool('The user stopped it'),
    );
    await expect
      .poll(() => view.locator('#view-status').textContent())
      .toBe('The tool call was cancelled: The user stopped it');
    // The host's own requests are answered: a ping, an empty teardown result (the host waits for
    // it before removing the frame), and -32601 for tools/list (the view offers no tools).
    expect(await page.evaluate(() => (globalThis as unknown as { askView: () => Promise<unknown> }).askView())).toEqual(
      {
        ping: { result: {} },
        toolsList: { errorCode: -32601 },
        teardown: { result: {} },
      },
    );
    expect(unexpected(problems)).toEqual([]);
  });

  it('list_projects: the gallery shows every card and filters them by domain and technology', async () => {
    const all = await projects();
    const { page, view, problems } = await show('list_projects', { limit: 100 });
    await expect.poll(() => view.locator('#projects .project-card').count()).toBe(all.length);
    expect(await view.locator('#projects .project-card__title').allTextContents()).toEqual(all.map((p) => p.title));
    await screenshot(page, view, 'project-gallery');

    const domain = all[0]!.domain;
    await view
      .locator('#domains button')
      .filter({ hasText: new RegExp(`^${domain.replace(/-/g, '.')}$`, 'i') })
      .click();
    const inDomain = all.filter((project) => project.domain === domain).map((project) => project.title);
    await expect.poll(() => view.locator('#projects .project-card__title').allTextContents()).toEqual(inDomain);
    const stack = all[0]!.stack[0]!;
    await view.locator('#stacks button', { hasText: stack }).first().click();
    const both = all.filter((project) => project.domain === domain && project.stack.includes(stack));
    await expect
      .poll(() => view.locator('#projects .project-card__title').allTextContents())
      .toEqual(both.map((project) => project.title));
    expect(unexpected(problems)).toEqual([]);
  });

  it('compare_projects: the comparison shows both cards, the shared stack and what each uses alone', async () => {
    const [first, second] = await projects();
    const { page, view, problems } = await show('compare_projects', { slugs: [first!.slug, second!.slug] });
    await expect
      .poll(() => view.locator('#projects .project-card__title').allTextContents())
      .toEqual([first!.title, second!.title]);
    const shared = first!.stack.filter((item) => second!.stack.includes(item));
    expect(await view.locator('#shared li').allTextContents()).toEqual(shared);
    expect(await view.locator('#unique dt').allTextContents()).toEqual([first!.title, second!.title]);
    await screenshot(page, view, 'project-comparison');
    expect(unexpected(problems)).toEqual([]);
  });

  it('submit_contact: the form, filled and sent in the view, reaches the inbox once through the host', async () => {
    const { page, view, problems } = await show('submit_contact', {}, false);
    const message = `Hello from an MCP Apps view, ${Date.now()}.`;
    await view.getByLabel('Your name').fill('View Visitor');
    await view.getByLabel('Your email').fill('visitor@example.com');
    await view.getByLabel(/Message/).fill(message);
    await screenshot(page, view, 'contact-form');
    await view.getByRole('button', { name: 'Send message' }).click();
    await expect.poll(() => view.locator('#view-status').textContent()).toBe('Message sent. Thank you!');
    const forwarded = await page.evaluate(() => (globalThis as unknown as { forwardedCalls: string[] }).forwardedCalls);
    expect(forwarded).toEqual(['submit_contact']);
    expect(await page.evaluate(() => document.title)).toBe('Host');
    const stored = (await storedInbox(server.dataDir)).filter((entry) => entry.message === message);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'View Visitor', email: 'visitor@example.com' });
    expect(unexpected(problems)).toEqual([]);
  });
});
