import { HAS_POSTGRES, startPostgres } from '../tests/support/postgres.ts';
import { HAS_REDIS, startRedis } from '../tests/support/redis.ts';

/** The shared engines a bench can run the server on, as several instances run it. */
export const SHARED_ENGINES = ['PostgreSQL', 'PostgreSQL and Redis'] as const;
export type SharedEngine = (typeof SHARED_ENGINES)[number];

/** Whether this machine has what `engine` needs (Debian's packages: tests/support/postgres.ts, redis.ts). */
export function hasEngine(engine: SharedEngine): boolean {
  return HAS_POSTGRES && (engine === 'PostgreSQL' || HAS_REDIS);
}

/** A throwaway PostgreSQL (fsync on), and Redis when `engine` says so: the server's settings for them. */
export interface RunningEngine {
  env: Record<string, string>;
  /** The PostgreSQL database's URL, for a bench that reads its statistics. */
  databaseUrl: string;
  redisUrl: string | null;
  stop(): Promise<void>;
}

/**
 * Starts `engine`. `postgresSettings` are passed to the server (`-c name=value`), e.g.
 * shared_preload_libraries=pg_stat_statements to count statements.
 */
export async function startEngine(
  engine: SharedEngine,
  postgresSettings: Record<string, string> = {},
): Promise<RunningEngine> {
  const [postgres, redis] = await Promise.all([
    startPostgres({ settings: postgresSettings }),
    engine === 'PostgreSQL and Redis' ? startRedis() : null,
  ]);
  const databaseUrl = await postgres.createDatabase();
  return {
    env: { DATABASE_URL: databaseUrl, ...(redis !== null && { REDIS_URL: redis.url }) },
    databaseUrl,
    redisUrl: redis?.url ?? null,
    stop: async () => {
      await Promise.all([redis?.stop(), postgres.destroy()]);
    },
  };
}
