import { profileTarget } from './profile.ts';
import { BENCH_SERVER_ENV, SERVER_ENTRY } from './processes.ts';
import { scenarios } from './scenarios.ts';

/**
 * `node --import tsx bench/profile-one.ts [seconds] [frames]`: the profile of each target
 * (BENCH_ONLY picks them) on the built server, with more frames than `npm run bench` prints,
 * to see where one target's time goes while working on it.
 */
const seconds = Number(process.argv[2] ?? 8);
const count = Number(process.argv[3] ?? 30);
for (const scenario of scenarios) {
  const frames = await profileTarget([SERVER_ENTRY], BENCH_SERVER_ENV, scenario, seconds, count);
  console.log(`\n${scenario.name}`);
  for (const hot of frames) console.log(`  ${(hot.share * 100).toFixed(1).padStart(5)} %  ${hot.frame}`);
}
