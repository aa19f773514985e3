/**
 * How often every function host runs the scheduled pass of the background work (the purge, due
 * deliveries, the job reaper, waiting jobs), in cron syntax (UTC): the one setting each host's
 * file follows. Netlify's bundle step writes it into the scheduled function's config
 * (functions/hosts/netlify/bundle.ts); vercel.json's `crons` and wrangler.toml's `[triggers]`
 * are static files read before any build, so they repeat it, and tests/unit/scheduled-pass.test.ts
 * fails until they say the same.
 *
 * Every minute delivers a retried notification within a minute. On a database that sleeps when
 * idle (Neon's free compute stops after 5 idle minutes), a pass every minute keeps it awake
 * past the free hours: there, set every 10 minutes, `'0,10,20,30,40,50 * * * *'`, here and in
 * both files.
 * Vercel's Hobby plan runs a cron once a day at most.
 */
export const SCHEDULED_PASS_CRON = '* * * * *';
