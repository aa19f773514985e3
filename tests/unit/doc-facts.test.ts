import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { docFacts, fillFacts } from '../../functions/discovery/doc-facts.ts';

describe('documentation facts', () => {
  const facts = docFacts(loadConfig({ READ_RATE_LIMIT: '7/30', SITE_URL: 'https://ada.example' }));

  it('come from the configuration, not from the text', () => {
    expect(facts['quota.read']).toBe('7 per 30 s');
    expect(facts.apiBase).toBe('https://ada.example/api/v1');
    expect(facts['quotas.table']).toContain('7 per 30 s');
  });

  it('say the job shares and retention periods the configuration sets', () => {
    const tight = docFacts(
      loadConfig({
        JOB_QUEUE_PER_CLIENT: '3',
        JOB_RUNNING_PER_CLIENT: '2',
        JOB_RESULTS_PER_CLIENT: '7',
        JOB_RETENTION_SECONDS: '7200',
        SANDBOX_RETENTION_SECONDS: '90',
        SANDBOX_STORAGE_BYTES: '70000',
      }),
    );
    expect(tight['jobs.shares']).toContain('3 jobs waiting and 2 running');
    expect(tight['jobs.shares']).toContain('its 7 most recently finished jobs');
    expect(tight['jobs.limits']).toContain('results are kept 2 hours');
    expect(tight['sandbox.retention']).toBe('90 seconds');
    expect(facts['sandbox.retention']).toBe('7 days');
    expect(tight['sandbox.storage']).toBe('70000 bytes');
    expect(facts['sandbox.storage']).toBe('1 MiB');
  });

  it('fill every slot and refuse an unknown one', () => {
    expect(fillFacts('Base: {{apiBase}}, reads {{ quota.read }}.', facts, 'x.md')).toBe(
      'Base: https://ada.example/api/v1, reads 7 per 30 s.',
    );
    expect(() => fillFacts('{{noSuchFact}}', facts, 'x.md')).toThrow('x.md: unknown fact {{noSuchFact}}');
  });
});
