import { spawnSync } from 'node:child_process';

/**
 * One step of an owner's command (`npm run migrate`, `npm run build`...), run in the checkout with
 * the owner's values and its output shown; a failed step stops the command, saying what was not done.
 */
export function runOwnerStep(
  root: string,
  caller: string,
  step: { title: string; command: string; args: string[]; env: Record<string, string | undefined> },
  notDone: string,
): void {
  process.stdout.write(`${caller}: ${step.title}\n`);
  const { status, error } = spawnSync(step.command, step.args, { cwd: root, env: step.env, stdio: 'inherit' });
  if (error !== undefined) throw error;
  if (status !== 0) throw new Error(`${step.title} failed (exit ${status ?? 'by signal'}); ${notDone}`);
}
