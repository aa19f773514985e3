import pg from 'pg';

/** Counts the connections to one database, from a connection of its own to the server's admin database. */
export interface ConnectionCounter {
  now(): Promise<number>;
  /** Counts over and over until the returned function is called, which resolves with the highest count seen. */
  sample(): () => Promise<number>;
  end(): Promise<void>;
}

/** A counter of the connections to `databaseUrl`'s database (pg_stat_activity), connected through `adminUrl`. */
export async function connectionCounter(adminUrl: string, databaseUrl: string): Promise<ConnectionCounter> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const now = async () =>
    (
      await admin.query<{ count: number }>('SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1', [
        database,
      ])
    ).rows[0]?.count ?? 0;
  return {
    now,
    sample: () => {
      let peak = 0;
      let sampling = true;
      const loop = (async () => {
        while (sampling) peak = Math.max(peak, await now());
      })();
      return async () => {
        sampling = false;
        await loop;
        return peak;
      };
    },
    end: () => admin.end(),
  };
}
