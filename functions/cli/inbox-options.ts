import { parseArgs } from 'node:util';
import { ENV_FILE_OPTION } from './service-config.ts';

/** The options of `npm run inbox`, as parseArgs reads them. */
const OPTIONS = {
  json: { type: 'boolean', default: false },
  since: { type: 'string' },
  unread: { type: 'boolean', default: false },
  'mark-read': { type: 'boolean', default: false },
  limit: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  redeliver: { type: 'boolean', default: false },
  spam: { type: 'boolean', default: false },
  'not-spam': { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
  ...ENV_FILE_OPTION,
} as const;

export interface InboxOptions {
  json: boolean;
  since: string | undefined;
  unread: boolean;
  markRead: boolean;
  limit: number | undefined;
  sandbox: boolean;
  redeliver: boolean;
  /** Show the spam folder instead of the inbox. */
  spam: boolean;
  /** Move the messages given by id from the spam folder to the inbox, and queue them for delivery. */
  notSpam: boolean;
  help: boolean;
  /** The service's environment file to read its settings from (--env-file), as given. */
  envFile: string | undefined;
  /** Message ids given as arguments: only these. */
  ids: number[];
}

/**
 * The options npm took for its own. `npm run inbox --unread` (without `--`) hands the script no
 * `--unread`: npm reads it as a setting of its own and passes it on as npm_config_unread=true. A
 * flag comes back from there. An option with a value given as `--since 1h` cannot: npm keeps
 * `--since` (as "true") and passes `1h` on as an argument, so that is refused, naming the forms
 * that work, rather than guessed.
 */
function optionsNpmTook(env: NodeJS.ProcessEnv): string[] {
  if (env.npm_lifecycle_event !== 'inbox') return [];
  const args: string[] = [];
  for (const [name, option] of Object.entries(OPTIONS)) {
    const value = env[`npm_config_${name.replace(/-/g, '_')}`];
    if (value === undefined || value === '') continue;
    if (option.type === 'boolean') {
      if (value === 'true') args.push(`--${name}`);
    } else if (value === 'true') {
      throw new Error(
        `npm took --${name} for itself and its value went astray: write npm run inbox -- --${name} <value> (with "--"), or --${name}=<value>`,
      );
    } else {
      args.push(`--${name}`, value);
    }
  }
  return args;
}

/** Reads the command line, and the options npm kept when they were given without `--`. */
export function parseInboxOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): InboxOptions {
  const { values, positionals } = parseArgs({
    args: [...argv, ...optionsNpmTook(env)],
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new Error('--limit must be a positive integer');
  const ids = positionals.map((text) => {
    const id = Number(text.replace(/^#/, ''));
    if (!Number.isInteger(id) || id < 1) throw new Error(`"${text}" is not a message id (such as 12 or #12)`);
    return id;
  });
  if (values.redeliver && values.sandbox) throw new Error('--redeliver: sandbox messages are never delivered');
  if (values.redeliver && values.spam)
    throw new Error('--redeliver: spam is never delivered; move a message to the inbox with --not-spam <id>');
  if (values['not-spam'] && (ids.length === 0 || values.sandbox))
    throw new Error('--not-spam: name the live messages to move to the inbox by id (npm run inbox -- --not-spam 12)');
  return {
    json: values.json,
    since: values.since,
    unread: values.unread,
    markRead: values['mark-read'],
    limit,
    sandbox: values.sandbox,
    redeliver: values.redeliver,
    spam: values.spam,
    notSpam: values['not-spam'],
    help: values.help,
    envFile: values['env-file'],
    ids,
  };
}
