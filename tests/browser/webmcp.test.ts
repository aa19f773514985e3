import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessageSchema } from '../../functions/contact/schema.ts';
import { inputJsonSchema } from '../../functions/mcp/tool-registry.ts';
import { searchQuery } from '../../functions/search/schema.ts';
import { SEARCH_QUERY_MAX_LENGTH } from '../../functions/search/search-types.ts';
import { SEND_MESSAGE } from '../../src/lib/webmcp-tools.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, launchChromium, watchedPage } from '../support/browser.ts';
import { storedInbox } from '../support/contact.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { callTool, type ToolResult } from '../support/webmcp-tools.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // A form filled by an agent is sent at once; the fill-time guard is not what these tests look at.
  [server, browser] = await Promise.all([
    startServer({ READ_RATE_LIMIT: '10000/60', CONTACT_MIN_FILL_SECONDS: '0' }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Where the test's stand-in for the browser's API lives, and how it behaves: on document as
 * Chrome ships it and the WebMCP draft defines it (registerTool returns a promise, refuses a name
 * already taken, and removes the tool when the registration's signal aborts), on navigator as
 * Chrome's early preview had it (registerTool returns nothing, no options), nowhere (every other
 * browser), or on document but refusing every tool by throwing or by rejecting its promise.
 */
type Stub = 'document' | 'navigator' | 'none' | 'throws' | 'rejects';

/** Opens a page with the stub installed before any of the page's scripts run. */
async function openWith(stub: Stub, path: string, base = server): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await watchedPage(browser, true);
  await page.addInitScript((where: Stub) => {
    const registered: { name: string }[] = [];
    const signals: AbortSignal[] = [];
    Object.assign(window, { registeredTools: registered, registrationSignals: signals });
    for (const prototype of [Navigator.prototype, Document.prototype])
      Reflect.deleteProperty(prototype, 'modelContext');
    if (where === 'none') return;
    const modelContext =
      where === 'navigator'
        ? {
            registerTool(tool: { name: string }) {
              registered.push(tool);
              return undefined;
            },
          }
        : {
            registerTool(tool: { name: string }, options: { signal?: AbortSignal } = {}) {
              if (where === 'throws') throw new TypeError('This browser refuses the tool.');
              if (where === 'rejects') return Promise.reject(new TypeError('This browser refuses the tool.'));
              const { signal } = options;
              if (signal) signals.push(signal);
              if (signal?.aborted) return Promise.reject(signal.reason);
              if (registered.some(({ name }) => name === tool.name))
                return Promise.reject(new DOMException('Duplicate tool name', 'InvalidStateError'));
              registered.push(tool);
              signal?.addEventListener('abort', () => registered.splice(registered.indexOf(tool), 1));
              return Promise.resolve(undefined);
            },
          };
    const holder = where === 'navigator' ? Navigator.prototype : Document.prototype;
    Object.defineProperty(holder, 'modelContext', { configurable: true, get: () => modelContext });
  }, stub);
  await page.goto(`${base.baseUrl}${path}`);
  return { page, problems };
}

/** The tools the page registered, as the browser received them (execute as its type). */
function registered(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(() =>
    (window as unknown as { registeredTools: Record<string, unknown>[] }).registeredTools.map(
      ({ execute, ...tool }) => ({ ...tool, execute: typeof execute }),
    ),
  );
}

async function openWithTool(path: string, name: string, base = server): Promise<{ page: Page; problems: string[] }> {
  const opened = await openWith('document', path, base);
  await expect.poll(async () => (await registered(opened.page)).map((tool) => tool.name)).toEqual([name]);
  return opened;
}

/** An API answer without its request id, which differs from call to call. */
function withoutRequestId(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const { requestId, ...rest } = body ?? {};
  expect(requestId).toEqual(expect.any(String));
  return rest;
}

async function messagesSaying(base: RunningServer, text: string): Promise<number> {
  return (await storedInbox(base.dataDir)).filter((entry) => entry.message === text).length;
}

describe('WebMCP tools registered with document.modelContext', () => {
  it('registers search_portfolio on the home page and /search, and send_message on /contact, each with its title, annotations and the input schema made from the API schema', async () => {
    const { page: home, problems: homeProblems } = await openWithTool('/', 'search_portfolio');
    const { page: search, problems: searchProblems } = await openWithTool('/search', 'search_portfolio');
    const [searchTool] = await registered(search);
    expect(await registered(home)).toEqual([searchTool]);
    expect(searchTool).toEqual({
      name: 'search_portfolio',
      title: 'Search the portfolio',
      description: expect.stringMatching(/^Search this portfolio's projects/),
      inputSchema: inputJsonSchema(searchQuery),
      annotations: { readOnlyHint: true },
      execute: 'function',
    });
    expect(searchTool!.inputSchema).toMatchObject({
      required: ['q'],
      additionalProperties: false,
      properties: { q: { type: 'string', minLength: 1, maxLength: SEARCH_QUERY_MAX_LENGTH } },
    });

    const { page: contact, problems: contactProblems } = await openWithTool('/contact', 'send_message');
    const [contactTool] = await registered(contact);
    expect(contactTool).toEqual({
      name: 'send_message',
      title: 'Send the owner a message',
      description: expect.stringMatching(/^Send the portfolio's owner a message/),
      inputSchema: inputJsonSchema(contactMessageSchema),
      annotations: { readOnlyHint: false },
      execute: 'function',
    });
    expect(contactTool!.inputSchema).toMatchObject({
      required: ['name', 'email', 'message'],
      additionalProperties: false,
    });
    expect([...homeProblems, ...searchProblems, ...contactProblems]).toEqual([]);
  });

  it('takes its tools back through the registration signal when the page is hidden, and offers them again when shown from the back/forward cache', async () => {
    const { page, problems } = await openWithTool('/', 'search_portfolio');
    const transition = (type: 'pagehide' | 'pageshow') =>
      page.evaluate((type) => dispatchEvent(new PageTransitionEvent(type, { persisted: true })), type);
    const signals = () =>
      page.evaluate(() =>
        (window as unknown as { registrationSignals: AbortSignal[] }).registrationSignals.map(
          (signal) => signal.aborted,
        ),
      );
    expect(await signals()).toEqual([false]);

    await transition('pagehide');
    expect(await registered(page)).toEqual([]);
    expect(await signals()).toEqual([true]);

    await transition('pageshow');
    expect((await registered(page)).map((tool) => tool.name)).toEqual(['search_portfolio']);
    expect(await signals()).toEqual([true, false]);
    expect((await callTool(page, 'search_portfolio', { q: 'leakhound' })).structuredContent?.total).toBe(1);
    // Hidden and shown again twice: one registration, never a second one refused as a duplicate.
    await transition('pageshow');
    expect(await signals()).toEqual([true, false]);
    expect(problems).toEqual([]);
  });

  it('has the contact form declare send_message with the same name, title and description (declarative WebMCP)', async () => {
    const { page, problems } = await openWithTool('/contact', 'send_message');
    const declared = await page.locator('form.contact-form').evaluate((form) => ({
      name: form.getAttribute('toolname'),
      title: form.getAttribute('tooltitle'),
      description: form.getAttribute('tooldescription'),
    }));
    expect(declared).toEqual({
      name: SEND_MESSAGE.name,
      title: SEND_MESSAGE.title,
      description: SEND_MESSAGE.description,
    });
    expect(problems).toEqual([]);
  });

  it('search_portfolio answers what GET /api/search answers for the same query, errors included', async () => {
    const { page, problems } = await openWithTool('/search', 'search_portfolio');
    const result = await callTool(page, 'search_portfolio', { q: 'leakhound', type: 'project', limit: 5 });
    const direct = (await (await fetch(`${server.baseUrl}/api/search?q=leakhound&type=project&limit=5`)).json()) as {
      results: { title: string }[];
    };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(direct);
    expect(direct.results.map((found) => found.title)).toEqual(['Leakhound']);
    expect(result.content).toEqual([{ type: 'text', text: '1 result for “leakhound”.' }]);

    const refused = await callTool(page, 'search_portfolio', { q: 'leakhound', limit: 500 });
    const directRefusal = await (await fetch(`${server.baseUrl}/api/search?q=leakhound&limit=500`)).json();
    expect(refused.isError).toBe(true);
    expect(withoutRequestId(refused.structuredContent)).toEqual(withoutRequestId(directRefusal));
    expect(refused.structuredContent?.code).toBe('invalid_parameter');
    expect(refused.content[0]!.text).toMatch(/^invalid_parameter: Query parameter "limit"/);

    // A query string would carry 5 as "5": the declared types are checked before the API is asked.
    const mistyped = await callTool(page, 'search_portfolio', { q: 5 });
    expect(mistyped).toEqual({
      content: [{ type: 'text', text: 'invalid_parameter: Argument "q" must be a string.' }],
      structuredContent: {
        code: 'invalid_parameter',
        message: 'Argument "q" must be a string.',
        hint: "See the tool's inputSchema.",
      },
      isError: true,
    });
    expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
  });

  it('send_message stores a valid message once, however often the same call is retried', async () => {
    const { page, problems } = await openWithTool('/contact', 'send_message');
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/contact')) keys.push(request.headers()['idempotency-key'] ?? '');
    });
    // The first attempt reaches the server, which stores the message, but its answer is lost.
    let attempts = 0;
    await page.route('**/api/v1/contact', async (route) => {
      attempts++;
      if (attempts > 1) return route.continue();
      await route.fetch();
      return route.abort('failed');
    });
    const message = `Sent by an agent through WebMCP ${Date.now()}`;
    const input = { name: 'Agent Visitor', email: 'agent@example.com', message };

    const lost = await callTool(page, 'send_message', input);
    expect(lost.isError).toBe(true);
    expect(lost.content[0]!.text).toMatch(/^Could not reach the server\. Call send_message again/);
    expect(await messagesSaying(server, message)).toBe(1);

    // The same call again, its fields in another order: the same message, so the same key.
    const retried = await callTool(page, 'send_message', { message, email: input.email, name: input.name });
    expect(retried).toEqual({
      content: [{ type: 'text', text: 'This message was already sent by an earlier call; it was stored once.' }],
      structuredContent: { success: true },
    });
    expect((await callTool(page, 'send_message', input)).structuredContent).toEqual({ success: true });
    expect(await messagesSaying(server, message)).toBe(1);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const another = `${message}, and a second message`;
    const sent = await callTool(page, 'send_message', { ...input, message: another });
    expect(sent.content).toEqual([{ type: 'text', text: 'Message sent. The owner replies by email.' }]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(await messagesSaying(server, another)).toBe(1);
    expect(problems.filter((problem) => !problem.includes('net::ERR_FAILED'))).toEqual([]);
  });

  it('send_message with an invalid message names each field in the API error shape and stores nothing', async () => {
    const { page, problems } = await openWithTool('/contact', 'send_message');
    const before = (await storedInbox(server.dataDir)).length;
    const result = await callTool(page, 'send_message', { name: ' ', email: 'not-an-email', message: 'Too short' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'validation_failed',
      message: 'The submission has 3 problems.',
      requestId: expect.any(String),
    });
    const errors = result.structuredContent!.errors as { field: string; problem: string }[];
    expect(errors.map((error) => error.field).sort()).toEqual(['email', 'message', 'name']);
    expect(result.content[0]!.text).toContain('email must be a valid email address.');
    expect(result.content[0]!.text).toContain('message must be at least 10 characters.');
    expect((await storedInbox(server.dataDir)).length).toBe(before);
    expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
  });

  it('send_message counts against the contact quota the server enforces', async () => {
    const limited = await startServer({ CONTACT_RATE_LIMIT: '2/600' });
    try {
      const { page, problems } = await openWithTool('/contact', 'send_message', limited);
      const input = (n: number) => ({
        name: 'Quota Visitor',
        email: 'quota@example.com',
        message: `Message number ${n}`,
      });
      for (const n of [1, 2]) expect((await callTool(page, 'send_message', input(n))).isError).toBeUndefined();
      const refused = await callTool(page, 'send_message', input(3));
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent?.code).toBe('rate_limited');
      expect(refused.content[0]!.text).toMatch(/^rate_limited: .* Try again in \d+ seconds\.$/);
      expect((await storedInbox(limited.dataDir)).map((entry) => entry.message)).toEqual(
        expect.arrayContaining([input(1).message, input(2).message]),
      );
      expect(await messagesSaying(limited, input(3).message)).toBe(0);
      expect(problems.filter((problem) => !problem.includes('status of 429'))).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});

describe('WebMCP tools elsewhere', () => {
  it("registers with navigator.modelContext, Chrome's early preview, where document has none", async () => {
    const { page, problems } = await openWith('navigator', '/search');
    await expect.poll(async () => (await registered(page)).map((tool) => tool.name)).toEqual(['search_portfolio']);
    expect((await callTool(page, 'search_portfolio', { q: 'leakhound' })).structuredContent?.total).toBe(1);
    expect(problems).toEqual([]);
  });

  it.each(['/', '/search', '/contact'])(
    'leaves %s as it was where the browser has no modelContext or refuses the tools',
    async (path) => {
      for (const stub of ['none', 'throws', 'rejects'] as const) {
        const { page, problems } = await openWith(stub, path);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => 'modelContext' in navigator || 'modelContext' in document)).toBe(
          stub !== 'none',
        );
        expect(await registered(page)).toEqual([]);
        // The page's own script still ran: it took over the form.
        if (path === '/contact')
          expect(await page.evaluate(() => document.querySelector('form')?.noValidate)).toBe(true);
        else if (path === '/search') {
          await page.getByLabel('Search for').fill('leakhou');
          await expect.poll(() => page.locator('#search-results li h2 a').allTextContents()).toEqual(['Leakhound']);
        }
        expect(problems, `${path} with ${stub}`).toEqual([]);
      }
    },
  );
});

/**
 * Chromium's own WebMCP (document.modelContext), switched on by its testing feature: the tools as
 * the browser holds them (getTools) and called as the browser calls them for an agent (executeTool).
 */
describe('WebMCP in Chromium itself', () => {
  let webmcpBrowser: Browser;
  beforeAll(async () => {
    webmcpBrowser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS, '--enable-features=WebMCPTesting'],
    });
  });
  afterAll(() => webmcpBrowser?.close());

  interface BrowserTool {
    name: string;
    title: string;
    description: string;
    inputSchema: Record<string, unknown>;
    annotations?: Record<string, boolean>;
  }

  /** A page of this browser, with every console warning and error and every script error. */
  async function open(path: string): Promise<{ page: Page; said: string[] }> {
    const page = await (await webmcpBrowser.newContext()).newPage();
    const said: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') said.push(message.text());
    });
    page.on('pageerror', (error) => said.push(error.message));
    await page.goto(`${server.baseUrl}${path}`);
    return { page, said };
  }

  function browserTools(page: Page): Promise<BrowserTool[]> {
    type Context = { getTools(): Promise<(BrowserTool & { window?: unknown })[]> };
    return page.evaluate(async () =>
      (await (document as unknown as { modelContext: Context }).modelContext.getTools()).map(
        ({ name, title, description, inputSchema, annotations }) => ({
          name,
          title,
          description,
          inputSchema,
          annotations,
        }),
      ),
    );
  }

  /** Starts a call of the named tool as the browser does for an agent; resolves to its parsed result. */
  function execute(page: Page, name: string, input: Record<string, unknown>): Promise<ToolResult> {
    type Context = {
      getTools(): Promise<{ name: string }[]>;
      executeTool(tool: unknown, input: unknown): Promise<unknown>;
    };
    return page.evaluate(
      async ({ name, input }) => {
        const context = (document as unknown as { modelContext: Context }).modelContext;
        const tool = (await context.getTools()).find((candidate) => candidate.name === name);
        const result = await context.executeTool(tool, input);
        return (typeof result === 'string' ? JSON.parse(result) : result) as ToolResult;
      },
      { name, input },
    );
  }

  it("holds the home page's search_portfolio with its title and read-only annotation, and runs it", async () => {
    const { page, said } = await open('/');
    await expect.poll(async () => (await browserTools(page)).map((tool) => tool.name)).toEqual(['search_portfolio']);
    const [tool] = await browserTools(page);
    expect(tool).toMatchObject({
      title: 'Search the portfolio',
      description: expect.stringMatching(/^Search this portfolio's projects/),
      inputSchema: inputJsonSchema(searchQuery),
      annotations: { readOnlyHint: true },
    });
    const result = await execute(page, 'search_portfolio', { q: 'leakhound' });
    expect(result.content).toEqual([{ type: 'text', text: '1 result for “leakhound”.' }]);
    expect(said).toEqual([]);
  });

  it('offers the contact form as send_message (declared, once), fills it for the agent, and answers the agent when the person sends it', async () => {
    const { page, said } = await open('/contact');
    await expect.poll(async () => (await browserTools(page)).map((tool) => tool.name)).toEqual(['send_message']);
    const [tool] = await browserTools(page);
    expect(tool).toMatchObject({
      title: SEND_MESSAGE.title,
      description: SEND_MESSAGE.description,
      inputSchema: { type: 'object' },
    });
    expect(tool!.inputSchema.required).toEqual(['name', 'email', 'message']);

    const message = `Sent through the declared form ${Date.now()}`;
    const answer = execute(page, 'send_message', { name: 'Form Agent', email: 'form-agent@example.com', message });
    // The browser fills the form and waits: sending stays the person's decision.
    await expect.poll(() => page.locator('#message').inputValue()).toBe(message);
    expect(await messagesSaying(server, message)).toBe(0);
    await page.getByRole('button', { name: 'Send message' }).click();
    expect((await answer).content).toEqual([{ type: 'text', text: 'Message sent. The owner replies by email.' }]);
    // The page stays, so the agent keeps its result; the person reads the outcome in the status line.
    expect(new URL(page.url()).pathname).toBe('/contact');
    await expect
      .poll(() => page.locator('#form-status').textContent())
      .toBe('Message sent. The owner replies by email.');
    expect(await messagesSaying(server, message)).toBe(1);
    expect(said).toEqual([]);
  });

  it('answers the agent with the API error when the person sends an invalid declared form, and shows it on the form too', async () => {
    const { page, said } = await open('/contact');
    await expect.poll(async () => (await browserTools(page)).map((tool) => tool.name)).toEqual(['send_message']);
    const before = (await storedInbox(server.dataDir)).length;
    const answer = execute(page, 'send_message', { name: 'Form Agent', email: 'not-an-email', message: 'Too short' });
    await expect.poll(() => page.locator('#email').inputValue()).toBe('not-an-email');
    await page.getByRole('button', { name: 'Send message' }).click();
    const result = await answer;
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.code).toBe('validation_failed');
    expect(result.content[0]!.text).toContain('email must be a valid email address.');
    await expect.poll(() => page.locator('#email').getAttribute('aria-invalid')).toBe('true');
    expect((await storedInbox(server.dataDir)).length).toBe(before);
    expect(said.filter((line) => !line.includes('status of 400'))).toEqual([]);
  });
});
