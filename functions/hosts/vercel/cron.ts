import build from 'portfolio:build-data';
import { readVariable } from '../../config/read-variable.ts';
import { createFetchHandler } from '../fetch/create-fetch-handler.ts';
import { cronTarget } from './cron-target.ts';

/**
 * Vercel's cron target (vercel.json, `crons`): one bounded pass of the background work for each
 * call that presents CRON_SECRET (./cron-target.ts says why, and what the others get).
 */
const service = createFetchHandler(process.env, build);

export default {
  fetch: cronTarget(service.config, readVariable(process.env, 'CRON_SECRET'), () => service.runScheduled()),
};
