import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';

const run = promisify(execFile);

/** How an owner's command ended. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** An npm script run as the owner runs it (`npm run <script> -- <args>`), with the environment given (DATABASE_URL, DATA_DIR). */
export async function npmRun(script: string, env: Record<string, string>, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout: string; stderr: string };
    return { code: code ?? -1, stdout, stderr };
  }
}
