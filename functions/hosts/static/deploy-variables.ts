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
  /** A value of the right shape, as the README's table of values shows it (scripts/deploy-table.ts). */
  sample: string;
  /** Where the owner gets the value, in the README's table of values (Markdown). */
  source: string;
}

const SHARED: readonly DeployVariable[] = [
  {
    name: 'DATABASE_URL',
    need: 'required',
    description:
      'PostgreSQL URL for messages, jobs, keys and quotas (Neon, Supabase, Netlify or Vercel Postgres; the pooled URL where offered), e.g. postgres://user:password@host/db?sslmode=require',
    sample: 'postgres://user:password@db.example.com/portfolio?sslmode=require',
    source:
      "the connection string of a free Neon or Supabase project, or of your Netlify or Vercel project's PostgreSQL: the pooled one where offered",
  },
  {
    name: 'NOTIFY_WEBHOOK_URL',
    need: 'asked',
    description:
      'Where each contact message is posted: a Discord or Slack incoming webhook URL, or https://ntfy.sh/<a long random topic>',
    sample: 'https://ntfy.sh/change-this-to-a-long-random-topic',
    source:
      "a Discord channel's webhook (the channel's settings > Integrations), a Slack incoming webhook, or an ntfy topic you make up and subscribe to in the ntfy app",
  },
  {
    name: 'NOTIFY_WEBHOOK_SECRET',
    need: 'optional',
    description: 'Signs each webhook post (Portfolio-Signature); any random text',
    sample: '5d41402abc4b2a76b9719d911017c592',
    source:
      'make it up (`openssl rand -hex 32`), for a receiver of your own that checks the `Portfolio-Signature` header (docs/operations.md, "Be told")',
  },
  {
    name: 'SMTP_URL',
    need: 'optional',
    description:
      'Mail each message instead of (or besides) the webhook: smtps://user:password@smtp.example.com:465 (never port 25 on Cloudflare)',
    sample: 'smtps://you%40example.com:app-password@smtp.example.com:465',
    source:
      "your mail provider's SMTP server, port 465 or 587 (a Worker may not use 25); user and password percent-encoded",
  },
  {
    name: 'NOTIFY_EMAIL_TO',
    need: 'optional',
    description: 'Where the mails go, with SMTP_URL: you@example.com',
    sample: 'you@example.com',
    source: 'your own address, with `SMTP_URL`',
  },
  {
    name: 'NOTIFY_EMAIL_FROM',
    need: 'optional',
    description: 'The From of the mails, an address your SMTP account may send as: Portfolio <site@example.com>',
    sample: 'Portfolio <site@example.com>',
    source: 'an address your SMTP account may send as, with `SMTP_URL`',
  },
];

/**
 * SITE_URL on a function host, for the README's table of values only: no button asks for it,
 * since a build takes the host's own address where the host gives one (functions/config/site-url.ts)
 * and the functions take the build's.
 */
export const SITE_URL_VALUE: Pick<DeployVariable, 'name' | 'sample' | 'source'> = {
  name: 'SITE_URL',
  sample: 'https://ada.example',
  source:
    "nowhere, mostly: unset, a build takes Netlify's `URL`, Cloudflare Pages' `CF_PAGES_URL` or Vercel's production URL, else `siteUrl` in content/site.json; set it, for the build, for a custom domain",
};

/** Variables only one host reads (`hosts` in functions/config/env-variables.ts), each required there. */
const HOST_ONLY: Record<string, readonly DeployVariable[]> = {
  vercel: [
    {
      name: 'CRON_SECRET',
      need: 'required',
      description: 'Any random text of at least 16 characters: Vercel sends it with each call of the scheduled pass',
      sample: '9e107d9d372bb6826bd81d3542a419d6',
      source:
        'make it up (`openssl rand -hex 32`): Vercel sends it with each call of the scheduled pass, which answers 403 without it',
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
