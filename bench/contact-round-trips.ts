import { Redis } from 'ioredis';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BENCH_SERVER_ENV, SERVER_ENTRY, startNode, WORK_DIR } from './processes.ts';
import { CONTACT_BODY } from './scenarios.ts';
import { hasEngine, SHARED_ENGINES, startEngine } from './shared-engines.ts';

/**
 * `node --import tsx bench/contact-round-trips.ts [messages] [at once]`: what one accepted contact message
 * asks of each shared engine, counted by the engines themselves while the built server stores
 * `messages` of them, `at once` at a time (1 by default): PostgreSQL statements by kind (pg_stat_statements,
 * BEGIN and COMMIT included), and Redis commands (INFO commandstats, which
 * counts those a script runs too). Background jobs (the purge and notify passes) may add a few.
 */
const MESSAGES = Number(process.argv[2] ?? 300);
/** How many are sent at once (argv[3]): beyond one, statements are shared (group commit). */
const AT_ONCE = Number(process.argv[3] ?? 1);

for (const engine of SHARED_ENGINES) {
  if (!hasEngine(engine)) continue;
  const running = await startEngine(engine, { shared_preload_libraries: 'pg_stat_statements' });
  const server = await startNode(`round-trips-${engine.replaceAll(' ', '-')}`, [SERVER_ENTRY], {
    ...BENCH_SERVER_ENV,
    ...running.env,
    DATA_DIR: path.join(WORK_DIR, `round-trips-${engine.replaceAll(' ', '-')}`),
  });
  const db = new pg.Client({ connectionString: running.databaseUrl });
  await db.connect();
  const redis = running.redisUrl === null ? null : new Redis(running.redisUrl);
  try {
    const send = () =>
      fetch(`http://127.0.0.1:${server.port}/api/v1/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: CONTACT_BODY,
      }).then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`the server answered ${response.status}`);
      });
    await send(); // The first message opens the pools and loads the Redis scripts.
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT pg_stat_statements_reset()');
    const redisBefore = redis === null ? new Map<string, number>() : commandStats(await redis.info('commandstats'));
    for (let sent = 0; sent < MESSAGES; sent += AT_ONCE)
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, MESSAGES - sent) }, send));
    const redisAfter = redis === null ? new Map<string, number>() : commandStats(await redis.info('commandstats'));
    const { rows } = await db.query<{ query: string; calls: string }>(
      `SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat%' AND query NOT LIKE '%xact_commit%' ORDER BY calls DESC`,
    );
    const perMessage = (calls: number) => (calls / MESSAGES).toFixed(2);
    const statements = rows.reduce((sum, row) => sum + Number(row.calls), 0);
    console.log(`\nPOST /api/v1/contact on ${engine}, ${MESSAGES} messages, ${AT_ONCE} at a time, per message:`);
    console.log(`  PostgreSQL statements (one round trip each): ${perMessage(statements)}`);
    for (const row of rows.filter((row) => Number(row.calls) >= MESSAGES / 10))
      console.log(`    ${perMessage(Number(row.calls))}  ${row.query.replace(/\s+/g, ' ').slice(0, 110)}`);
    if (redis !== null) {
      const used = [...redisAfter].map(([name, calls]) => [name, calls - (redisBefore.get(name) ?? 0)] as const);
      const mine = used.filter(([name]) => name !== 'info' && name !== 'client');
      console.log(`  Redis commands: ${perMessage(mine.reduce((sum, [, calls]) => sum + calls, 0))}`);
      for (const [name, calls] of mine.filter(([, calls]) => calls > 0))
        console.log(`    ${perMessage(calls)}  ${name}`);
    }
  } finally {
    await db.end();
    redis?.disconnect();
    server.child.kill('SIGTERM');
    await running.stop();
  }
}

/** Calls per command from INFO commandstats (`cmdstat_evalsha:calls=3,...`). */
function commandStats(info: string): Map<string, number> {
  const stats = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}
