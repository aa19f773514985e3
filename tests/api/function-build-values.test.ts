import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { buildDataOf, type BuildData } from '../../functions/hosts/fetch/build-data.ts';
import { createFetchHandler, type ServiceFunction } from '../../functions/hosts/fetch/create-fetch-handler.ts';
import { errorSchema } from '../../functions/openapi/error-schemas.ts';
import { loadBuild } from '../../functions/hosts/static/build-output.ts';
import { freshDatabaseUrl, HAS_POSTGRES, migrateDatabase } from '../support/postgres.ts';
import { ROOT } from '../support/server.ts';

/** The build this function is bundled with, as made for another address than content/site.json's. */
const BUILT_FOR = 'https://ada-built.example';

/** Every line the function logs while `run` runs, parsed. */
async function logLinesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A function takes the baked variables (SITE_URL first) from the build it was bundled with unless
 * its environment sets them (functions/hosts/fetch/built-environment.ts); set to other values,
 * it answers every request 503 build_mismatch, saying what to rebuild with, instead of throwing at
 * load into the host's bare 500.
 */
describe.skipIf(!HAS_POSTGRES)('a function and the values of its build', () => {
  let build: BuildData;
  let databaseUrl: string;
  const services: ServiceFunction[] = [];

  beforeAll(async () => {
    const built = buildDataOf(loadBuild(path.join(ROOT, 'dist')));
    build = {
      ...built,
      manifest: { ...built.manifest, environment: { ...built.manifest.environment, SITE_URL: BUILT_FOR } },
    };
    databaseUrl = await freshDatabaseUrl();
    await migrateDatabase(databaseUrl);
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
  });

  const functionWith = (env: Record<string, string>) => {
    const service = createFetchHandler({ DATABASE_URL: databaseUrl, ...env }, build);
    services.push(service);
    return service;
  };

  it("takes the build's SITE_URL when its environment has none, and serves", async () => {
    const service = functionWith({});
    expect(service.config.siteUrl).toBe(BUILT_FOR);
    expect(service.config).toEqual(loadConfig({ DATABASE_URL: databaseUrl, ...build.manifest.environment }));
    const answer = await service.fetch(new Request('http://127.0.0.1/api/v1/projects'));
    expect(answer.status).toBe(200);
    // The security headers follow the build's https:// address, not content/site.json's http:// one.
    expect(answer.headers.get('strict-transport-security')).not.toBeNull();
  });

  it('answers 503 build_mismatch on the API, MCP and the contact page when its SITE_URL differs, and logs it once', async () => {
    const answers: Response[] = [];
    const lines = await logLinesOf(async () => {
      const service = functionWith({ SITE_URL: 'https://staging.example' });
      answers.push(
        await service.fetch(new Request('http://127.0.0.1/api/v1/projects')),
        await service.fetch(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          }),
        ),
        await service.fetch(
          new Request('http://127.0.0.1/contact', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'name=Ada&email=ada%40example.com&message=Hello',
          }),
        ),
      );
      await expect(service.runScheduled()).rejects.toThrow(
        /Rebuild and redeploy with SITE_URL="https:\/\/staging.example"/,
      );
    });

    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('retry-after')).toBe('300');
      const body = errorSchema.parse(await answer.json());
      expect(body).toMatchObject({ code: 'build_mismatch', requestId: answer.headers.get('x-request-id') });
      expect(body.message).toContain(`SITE_URL built with "${BUILT_FOR}", set to "https://staging.example"`);
      expect(body.hint).toContain('Rebuild and redeploy with SITE_URL="https://staging.example"');
      expect(body.hint).toContain("or remove SITE_URL from the function's environment");
    }
    const refusals = lines.filter((line) => line.code === 'build_mismatch');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ level: 'warning', variables: ['SITE_URL'] });
    expect(refusals[0]?.message).toContain(`SITE_URL built with "${BUILT_FOR}", set to "https://staging.example"`);
  });

  it('serves when its SITE_URL is set to the same address, a trailing slash aside', () => {
    expect(functionWith({ SITE_URL: `${BUILT_FOR}/` }).config.siteUrl).toBe(BUILT_FOR);
  });
});
