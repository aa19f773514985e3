import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The variables the owner's file gives; the test's own environment must not stand in for them. */
const OWNER_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'SITE_URL', 'NOTIFY_WEBHOOK_URL', 'CF_PAGES'];

/** The test's environment without the owner's variables: the shell an owner types commands into. */
export const ownerShell = (): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWNER_VARIABLES.includes(name)));

/** The owner's local rehearsals, each with the line it prints once it serves. */
export const PREVIEWS = {
  'preview:netlify': /^preview:netlify: the build/,
  'preview:cloudflare': /Ready on/,
} as const;

export type PreviewScript = keyof typeof PREVIEWS;

/**
 * `npm run <script> -- --port <port> [args]` in the checkout `dir`, as the owner starts it, in a process
 * group of its own (stopPreview ends wrangler and workerd with it); resolves once it serves.
 * `readyWithinMs` only catches a hang: generous, for a busy machine.
 */
export async function startPreview(
  dir: string,
  script: PreviewScript,
  port: number,
  options: { readyWithinMs?: number; args?: readonly string[] } = {},
): Promise<ChildProcess> {
  // workerd binds ports of its own beside `port`; another test's process may take one between
  // wrangler's choosing it and workerd's binding it (several start at once in this tier): a start
  // that stops on that is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startedPreview(dir, script, port, options);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startedPreview(
  dir: string,
  script: PreviewScript,
  port: number,
  { readyWithinMs = 180_000, args = [] }: { readyWithinMs?: number; args?: readonly string[] },
): Promise<ChildProcess> {
  const child = spawn('npm', ['run', script, '--', '--port', String(port), ...args], {
    cwd: dir,
    env: ownerShell(),
    detached: true,
  });
  const output: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} did not start:\n${output.join('\n')}`)),
        readyWithinMs,
      );
      child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output.join('\n')}`)));
      for (const stream of [child.stdout!, child.stderr!])
        createInterface({ input: stream }).on('line', (line) => {
          output.push(line);
          if (PREVIEWS[script].test(line)) {
            clearTimeout(timer);
            resolve();
          }
        });
    });
  } catch (error) {
    await stopPreview(child);
    throw error;
  }
  return child;
}

/** SIGTERM to the preview's process group, and its exit awaited. */
export async function stopPreview(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}
