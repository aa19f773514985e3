// Vercel Cron Jobs: one pass of the background work (functions/hosts/vercel/cron.ts), called by
// the schedule in vercel.json.
export { default } from '../dist/functions/vercel-cron.mjs';
