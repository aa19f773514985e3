import { ENV_VARIABLES, type EnvVariable } from '../../config/env-variables.ts';

/** A host the service runs on as functions, with a deploy button (docs/deploy-buttons.md). */
export type FunctionHostName = 'netlify' | 'vercel' | 'cloudflare';

/**
 * How much a function deployment needs a variable. `required`: it does not work without it.
 * `asked`: the recommended way to be told of messages (the webhook: Discord, Slack or ntfy, a
 * few minutes to set up), asked by every deploy button so that no deployment starts deaf.
 * `optional`: the alternatives a deploy button cannot mark optional (Netlify's
 * `[template.environment]` and Vercel's `env=` list required variables only; Cloudflare's button
 * asks for every uncommented line of `.dev.vars.example`), so each host's file names them in a
 * comment instead.
 */
type Need = 'required' | 'asked' | 'optional';

/** A variable a deploy button or the owner's `.dev.vars` names, with the one line each shows. */
export interface DeployVariable {
  name: EnvVariable;
  need: Need;
  /** What to enter, in a line: Netlify's `[template.environment]` value, Cloudflare's binding description, `.dev.vars.example`'s comment. */
  description: string;
}

const SHARED: readonly DeployVariable[] = [
  {
    name: 'DATABASE_URL',
    need: 'required',
    description:
      'PostgreSQL URL for messages, jobs, keys and quotas (Neon, Supabase, Netlify or Vercel Postgres; the pooled URL where offered), e.g. postgres://user:password@host/db?sslmode=require',
  },
  {
    name: 'NOTIFY_WEBHOOK_URL',
    need: 'asked',
    description:
      'Where each contact message is posted: a Discord or Slack incoming webhook URL, or https://ntfy.sh/<a long random topic>',
  },
  {
    name: 'NOTIFY_WEBHOOK_SECRET',
    need: 'optional',
    description: 'Signs each webhook post (Portfolio-Signature); any random text',
  },
  {
    name: 'SMTP_URL',
    need: 'optional',
    description:
      'Mail each message instead of (or besides) the webhook: smtps://user:password@smtp.example.com:465 (never port 25 on Cloudflare)',
  },
  { name: 'NOTIFY_EMAIL_TO', need: 'optional', description: 'Where the mails go, with SMTP_URL: you@example.com' },
  {
    name: 'NOTIFY_EMAIL_FROM',
    need: 'optional',
    description: 'The From of the mails, an address your SMTP account may send as: Portfolio <site@example.com>',
  },
];

/** Variables only one host reads (`hosts` in functions/config/env-variables.ts), each required there. */
const HOST_ONLY: Record<string, readonly DeployVariable[]> = {
  vercel: [
    {
      name: 'CRON_SECRET',
      need: 'required',
      description: 'Any random text of at least 16 characters: Vercel sends it with each call of the scheduled pass',
    },
  ],
};

/**
 * What a function deployment on `host` is asked for: the variables every host reads that a
 * function deployment needs or chooses (SHARED), then each variable whose row in
 * functions/config/env-variables.ts says only this host reads it (CRON_SECRET on Vercel).
 */
export function deployVariables(host: FunctionHostName): DeployVariable[] {
  const own = (Object.keys(ENV_VARIABLES) as EnvVariable[]).filter((name) => ENV_VARIABLES[name].hosts === host);
  const described = HOST_ONLY[host] ?? [];
  const missing = own.filter((name) => !described.some((variable) => variable.name === name));
  if (missing.length > 0) throw new Error(`deploy-variables.ts: describe ${missing.join(', ')} for ${host}`);
  return [...SHARED.filter(({ name }) => ENV_VARIABLES[name].hosts === 'all'), ...described];
}

/** The names a host's deploy button asks for: the required ones and the webhook. */
export function askedVariables(host: FunctionHostName): EnvVariable[] {
  return deployVariables(host)
    .filter(({ need }) => need !== 'optional')
    .map(({ name }) => name);
}
