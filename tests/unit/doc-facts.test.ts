import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config/env.ts';
import { docFacts, fillFacts } from '../../functions/docs/facts.ts';

describe('documentation facts', () => {
  const facts = docFacts(loadConfig({ READ_RATE_LIMIT: '7/30', SITE_URL: 'https://ada.example' }));

  it('come from the configuration, not from the text', () => {
    expect(facts['quota.read']).toBe('7 per 30 s');
    expect(facts.apiBase).toBe('https://ada.example/api/v1');
    expect(facts['quotas.table']).toContain('7 per 30 s');
  });

  it('fill every slot and refuse an unknown one', () => {
    expect(fillFacts('Base: {{apiBase}}, reads {{ quota.read }}.', facts, 'x.md')).toBe('Base: https://ada.example/api/v1, reads 7 per 30 s.');
    expect(() => fillFacts('{{noSuchFact}}', facts, 'x.md')).toThrow('x.md: unknown fact {{noSuchFact}}');
  });
});
