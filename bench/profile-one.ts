import { profileTarget } from './profile.ts';
import { BENCH_SERVER_ENV, SERVER_ENTRY } from './processes.ts';
import { scenarios } from './scenarios.ts';
import { SHARED_ENGINES, startEngine, type SharedEngine } from './shared-engines.ts';

/**
 * `node --import tsx bench/profile-one.ts [seconds] [frames]`: the profile of each target
 * (BENCH_ONLY picks them) on the built server, with more frames than `npm run bench` prints,
 * to see where one target's time goes while working on it. BENCH_ENGINE=PostgreSQL (or
 * "PostgreSQL and Redis") runs the server on that shared engine instead of SQLite.
 */
const seconds = Number(process.argv[2] ?? 8);
const count = Number(process.argv[3] ?? 30);
const engine = process.env.BENCH_ENGINE as SharedEngine | undefined;
if (engine !== undefined && !SHARED_ENGINES.includes(engine))
  throw new Error(`BENCH_ENGINE is one of ${SHARED_ENGINES.join(', ')}`);
for (const scenario of scenarios) {
  const running = engine === undefined ? null : await startEngine(engine);
  try {
    const env = { ...BENCH_SERVER_ENV, ...running?.env };
    const frames = await profileTarget([SERVER_ENTRY], env, scenario, seconds, count);
    console.log(`\n${scenario.name}${engine === undefined ? '' : ` (${engine})`}`);
    for (const hot of frames) console.log(`  ${(hot.share * 100).toFixed(1).padStart(5)} %  ${hot.frame}`);
  } finally {
    await running?.stop();
  }
}
