import { describe, expect, it } from 'vitest';
import { TASK_NAMES, TASKS, DEFAULT_TASK, type TaskContext } from '../../functions/jobs/tasks.ts';
import { Catalog } from '../../functions/projects/catalog.ts';
import { projectSource as source } from '../support/fixtures.ts';

const catalog = new Catalog(
  [
    source('beta', 2020, 'web', ['TypeScript', 'React']),
    source('alpha', 2020, 'data', ['Python']),
    source('gamma', 2024, 'web', ['Go', 'TypeScript']),
  ],
  'https://ada.example',
);

function context(progress: number[] = []): TaskContext {
  return { catalog, reportProgress: (fraction) => progress.push(fraction) };
}

describe('task registry', () => {
  it('names every task once, with the default among them', () => {
    expect(TASK_NAMES).toEqual(['export', 'stats', 'digest']);
    expect(TASK_NAMES).toContain(DEFAULT_TASK);
  });

  it.each(TASK_NAMES)('%s takes an absent input as empty and refuses unknown input fields', (name) => {
    expect(TASKS[name].input.safeParse(undefined).success).toBe(true);
    expect(TASKS[name].input.safeParse({ unexpected: 1 }).success).toBe(false);
  });
});

describe('export', () => {
  it('returns every project in catalog order, matching its result schema', async () => {
    const result = await TASKS.export.execute({}, context());
    expect(TASKS.export.result.parse(result)).toEqual(result);
    expect(result.projects.map((project) => project.slug)).toEqual(['gamma', 'alpha', 'beta']);
    expect(result.projects[0]).toEqual(catalog.get('gamma')?.project);
    expect(result.count).toBe(3);
  });
});

describe('stats', () => {
  it('counts projects by domain, stack item and year', async () => {
    const result = await TASKS.stats.execute(undefined, context());
    expect(TASKS.stats.result.parse(result)).toEqual(result);
    expect(result).toEqual({
      total: 3,
      byDomain: { web: 2, data: 1 },
      byStack: { TypeScript: 2, React: 1, Python: 1, Go: 1 },
      byYear: { '2020': 2, '2024': 1 },
    });
  });
});

describe('digest', () => {
  it('writes a section per project and reports monotonic progress ending at 1', async () => {
    const progress: number[] = [];
    const result = await TASKS.digest.execute({}, context(progress));
    expect(TASKS.digest.result.parse(result)).toEqual(result);
    expect(result.projects).toBe(3);
    expect(result.markdown).toMatch(/^# Portfolio digest\n/);
    expect(result.markdown.match(/^## /gm)).toHaveLength(3);
    expect(result.markdown).toContain(
      '## Project gamma\n\n- Year: 2024\n- Domain: Web\n- Stack: Go, TypeScript\n\ngamma description text',
    );
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it('filters by domain, case-insensitively, and finishes on an empty selection', async () => {
    const web = await TASKS.digest.execute({ domain: 'WEB' }, context());
    expect(web.projects).toBe(2);
    expect(web.markdown).not.toContain('Project alpha');
    const progress: number[] = [];
    const none = await TASKS.digest.execute({ domain: 'games' }, context(progress));
    expect(none.projects).toBe(0);
    expect(progress).toEqual([1]);
  });

  it('refuses an empty or non-string domain', () => {
    expect(TASKS.digest.input.safeParse({ domain: '  ' }).success).toBe(false);
    expect(TASKS.digest.input.safeParse({ domain: 3 }).success).toBe(false);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const run = TASKS.digest.execute({}, { ...context(), signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toThrow();
  });
});
