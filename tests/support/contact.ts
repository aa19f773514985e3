import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { loadConfig } from '../../functions/config/env.ts';
import { openStorage } from '../../functions/state/open-storage.ts';
import { inboxEntry, type InboxEntry } from '../../functions/contact/inbox-entry.ts';
import type { Folder } from '../../functions/contact/message-store.ts';
import { engineEnv } from './engines.ts';
import { ROOT } from './server.ts';

const run = promisify(execFile);

export const VALID = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  message: 'Hello Ada, I enjoyed reading about Leakhound.',
};

export interface Posted {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs a contact submission; `key: null` leaves the Idempotency-Key out. */
export async function postContact(
  baseUrl: string,
  body: unknown,
  options: { key?: string | null; headers?: Record<string, string>; query?: string; raw?: string } = {},
): Promise<Posted> {
  const key = options.key === undefined ? randomUUID() : options.key;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (key !== null) headers['idempotency-key'] = key;
  const response = await fetch(`${baseUrl}/api/v1/contact${options.query ?? ''}`, {
    method: 'POST',
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** The contact page as served: its Idempotency-Key and fill-time token, for a plain form post. */
export async function contactPageTokens(baseUrl: string): Promise<{ idempotency_key: string; form_token: string }> {
  const html = await (await fetch(`${baseUrl}/contact`)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  return { idempotency_key: field('idempotency_key'), form_token: field('form_token') };
}

/** The inbox command's output, run the way the owner runs it: `npm run inbox -- <args>`. */
export async function runInbox(dataDir: string, ...args: string[]): Promise<string> {
  return (await runInboxOutput({}, dataDir, ...args)).stdout;
}

/** The same with more of the service's configuration (the channels --redeliver queues for): stdout and stderr. */
export async function runInboxOutput(
  env: Record<string, string>,
  dataDir: string,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'functions/cli/inbox.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...(await engineEnv(dataDir)), ...env },
  });
}

/** The inbox as the owner's `npm run inbox -- --json` lists it. */
export async function readInbox(dataDir: string, ...args: string[]): Promise<InboxEntry[]> {
  return (await runInbox(dataDir, '--json', ...args))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as InboxEntry);
}

/**
 * The inbox read straight from the database, in the CLI's --json shape, without starting the
 * CLI: for tests of what was stored (the CLI itself has its own tests).
 */
export async function storedInbox(
  dataDir: string,
  options: { sandbox?: boolean; folder?: Folder } = {},
): Promise<InboxEntry[]> {
  const storage = await openStorage(loadConfig({ DATA_DIR: dataDir, ...(await engineEnv(dataDir)) }));
  try {
    return (await storage.messages.list({ sandbox: options.sandbox === true, folder: options.folder })).map(inboxEntry);
  } finally {
    await storage.close();
  }
}
