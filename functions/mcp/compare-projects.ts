import { z } from 'zod';
import { ApiError } from '../http/api-error.ts';
import { OPERATIONS } from '../operations/operations.ts';
import { projectSchema, type Project } from '../projects/schema.ts';
import type { ApiCaller, ApiOutcome } from './api-caller.ts';
import { refuseArguments } from './tool-registry.ts';

/** How many projects one comparison takes. */
export const COMPARE_LIMIT = { min: 2, max: 10 } as const;

export const comparisonSchema = z.object({
  projects: z.array(projectSchema).describe('The projects, in the order asked.'),
  sharedStack: z.array(z.string()).describe('Stack items every one of the projects uses.'),
  uniqueStack: z
    .record(z.string(), z.array(z.string()))
    .describe('By slug: stack items only that project uses among these.'),
  domains: z.record(z.string(), z.array(z.string())).describe('By domain: the slugs in it.'),
  years: z
    .object({ from: z.number().int(), to: z.number().int() })
    .describe('The earliest and the latest year among them.'),
});

type Comparison = z.infer<typeof comparisonSchema>;

/**
 * compare_projects: reads the projects through the batch operation (one consistent snapshot,
 * one read of quota per project, unknown slugs named by index in a 422 `batch_failed`), then
 * lays out what they share and what sets each apart.
 */
export async function compareProjects(args: Record<string, unknown>, api: ApiCaller): Promise<ApiOutcome> {
  refuseArguments(args, ['slugs']);
  const { slugs } = args;
  if (
    !Array.isArray(slugs) ||
    slugs.length < COMPARE_LIMIT.min ||
    slugs.length > COMPARE_LIMIT.max ||
    !slugs.every((slug) => typeof slug === 'string')
  ) {
    throw new ApiError(
      'invalid_parameter',
      `Argument "slugs" must be an array of ${COMPARE_LIMIT.min} to ${COMPARE_LIMIT.max} project slugs.`,
      {
        hint: 'Take slugs from list_projects or search.',
      },
    );
  }
  const outcome = await api({
    method: 'POST',
    path: OPERATIONS.batchOperations.path,
    body: { operations: slugs.map((id) => ({ op: 'getProject', id })) },
  });
  if (outcome.status >= 400) return outcome;
  const { results } = outcome.body as { results: { data: Project }[] };
  return { status: 200, body: comparison(results.map((result) => result.data)) };
}

function comparison(projects: Project[]): Comparison {
  const stacks = projects.map((project) => new Set(project.stack.map((item) => item.toLowerCase())));
  const usedBy = (item: string) => stacks.filter((stack) => stack.has(item.toLowerCase())).length;
  const domains: Record<string, string[]> = {};
  for (const project of projects) (domains[project.domain] ??= []).push(project.slug);
  const years = projects.map((project) => project.year);
  return {
    projects,
    sharedStack: (projects[0]?.stack ?? []).filter((item) => usedBy(item) === projects.length),
    uniqueStack: Object.fromEntries(
      projects.map((project) => [project.slug, project.stack.filter((item) => usedBy(item) === 1)]),
    ),
    domains,
    years: { from: Math.min(...years), to: Math.max(...years) },
  };
}
