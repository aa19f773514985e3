import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEDULED_PASS_CRON } from '../../functions/hosts/static/scheduled-pass.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the scheduled pass runs as often on every host (functions/hosts/static/scheduled-pass.ts)', () => {
  it('is a five-field cron expression', () => {
    expect(SCHEDULED_PASS_CRON.split(' ')).toHaveLength(5);
  });

  it("vercel.json's cron calls the cron target on that schedule", () => {
    const { crons } = JSON.parse(read('vercel.json')) as { crons: { path: string; schedule: string }[] };
    expect(crons, 'vercel.json "crons": set its schedule to SCHEDULED_PASS_CRON').toEqual([
      { path: '/api/portfolio-cron', schedule: SCHEDULED_PASS_CRON },
    ]);
  });

  it("wrangler.toml's Cron Trigger is that schedule", () => {
    const triggers = /^\[triggers\]\ncrons = (\[.*\])$/m.exec(read('wrangler.toml'))?.[1];
    expect(triggers, 'wrangler.toml [triggers] crons').toBeDefined();
    expect(JSON.parse(triggers!), 'wrangler.toml [triggers]: set crons to SCHEDULED_PASS_CRON').toEqual([
      SCHEDULED_PASS_CRON,
    ]);
  });
});
