import type { TestProject } from 'vitest/node';
import { HAS_POSTGRES, startPostgres } from './postgres.ts';

/**
 * One PostgreSQL for the whole run (vitest globalSetup): tests take a database of their own on it
 * with freshDatabaseUrl(). Tests that stop the server start one of their own (startPostgres).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!HAS_POSTGRES) {
    project.provide('postgresUrl', '');
    return undefined;
  }
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.destroy();
}
