import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';

/** What the command depends on besides the configuration: where the service runs, and as whom. */
export interface ServiceMachine {
  /** The service's working directory: the checkout, where `npm run` finds the script. */
  cwd: string;
  /** The user to run the command as (`sudo -u`), or null when whoever owns the checkout may. */
  runAs: string | null;
}

/**
 * This process's machine. A service running as a user other than the one who owns its checkout
 * (the deploy's `portfolio` user beside the owner's own account) keeps files only it may read, so
 * the owner runs the command as that user.
 */
function thisMachine(): ServiceMachine {
  const cwd = process.cwd();
  let owner: number | null = null;
  try {
    owner = statSync(cwd).uid;
  } catch {
    // An unreadable working directory: nothing to say about users.
  }
  const uid = process.getuid?.() ?? null;
  return { cwd, runAs: owner !== null && uid !== null && owner !== uid ? userInfo().username : null };
}

/** A word for `sh`, quoted only when it needs to be. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The exact command that shows this service's inbox, for the owner to paste on the server: in
 * its working directory, as its user, with its environment file (PORTFOLIO_ENV_FILE) when known,
 * which holds DATA_DIR or DATABASE_URL as the deploy writes it (deploy/systemd/portfolio.env);
 * else with its DATA_DIR when that is not the default. A file without them makes the command say
 * where it looked and stop (functions/cli/service-config.ts), never list an empty inbox.
 * `options` follow the script's own (`--spam` for the spam folder).
 */
export function inboxCommand(
  { envFile, dataDir, onSqlite }: { envFile: string | null; dataDir: string; onSqlite: boolean },
  machine: ServiceMachine = thisMachine(),
  options: readonly string[] = [],
): string {
  const { cwd, runAs } = machine;
  const words = [`cd ${shellWord(cwd)} &&`];
  if (runAs !== null) words.push(`sudo -u ${shellWord(runAs)}`);
  if (envFile === null && onSqlite && dataDir !== path.resolve(cwd, 'data'))
    // sudo refuses NAME=value for most users; env(1) sets it on the other side.
    words.push(`${runAs === null ? '' : 'env '}DATA_DIR=${shellWord(dataDir)}`);
  words.push('npm run inbox');
  const args = [...(envFile === null ? [] : [`--env-file ${shellWord(envFile)}`]), ...options];
  if (args.length > 0) words.push('--', ...args);
  if (envFile === null && !onSqlite) words.push("(with the service's DATABASE_URL set)");
  return words.join(' ');
}

/**
 * The command for the owner of a function deployment (Netlify, Vercel, Cloudflare Workers): the
 * service's folder there is the host's own (workerd's `/bundle`, Lambda's `/var/task`), which the
 * owner cannot enter, so the inbox is read from the owner's checkout, with the deployment's
 * DATABASE_URL. `options` as for inboxCommand.
 */
export function checkoutInboxCommand(options: readonly string[] = []): string {
  const args = options.length > 0 ? ` -- ${options.join(' ')}` : '';
  return `DATABASE_URL=… npm run inbox${args} (in your checkout, with this deployment's DATABASE_URL)`;
}
