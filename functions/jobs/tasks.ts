import { z } from 'zod';
import type { Catalog } from '../projects/catalog.ts';
import { domainLabel } from '../projects/project-markdown.ts';
import { projectSchema, type Project } from '../projects/schema.ts';

/** What a running task may use: the portfolio, a progress channel and a stop request. */
export interface TaskContext {
  catalog: Catalog;
  /** Fraction done, 0..1; the runner decides how often it is stored. */
  reportProgress(fraction: number): void;
  /** Aborted when the service shuts down; long tasks stop at their next step. */
  signal?: AbortSignal;
}

/**
 * One kind of job. The schemas are the contract: they validate requests and results, and the
 * OpenAPI description and the docs are generated from them.
 */
interface Task<I, R> {
  description: string;
  input: z.ZodType<I, unknown>;
  result: z.ZodType<R, unknown>;
  run(input: I, context: TaskContext): Promise<R>;
}

/** A task plus `execute`, which takes unchecked input so the runner can call any task the same way. */
export interface RegisteredTask<I, R> extends Task<I, R> {
  /** Parses the input, runs the task and checks its result against the result schema (throws on a mismatch). */
  execute(input: unknown, context: TaskContext): Promise<R>;
}

function defineTask<I, R>(task: Task<I, R>): RegisteredTask<I, R> {
  return {
    ...task,
    execute: async (input, context) => task.result.parse(await task.run(task.input.parse(input), context)),
  };
}

/** Pause between two projects of a digest, so that the job is long enough to show progress. */
const DIGEST_STEP_MS = 50;

/**
 * Tasks without parameters take an empty object, and an absent input means the same. One schema
 * per task, so that each is published under its own task's name.
 */
const noInput = () => z.object({}).strict().default({});
const counts = z.record(z.string(), z.number().int().nonnegative());

/** Every task the jobs endpoint runs: the one list requests are checked against and docs are made from. */
export const TASKS = {
  export: defineTask({
    description: 'The whole portfolio as one JSON document: every project in catalog order, with a count.',
    input: noInput(),
    result: z.object({
      generatedAt: z.string().datetime(),
      projects: z.array(projectSchema),
      count: z.number().int().nonnegative(),
    }),
    run: async (_input, { catalog }) => {
      const projects = catalog.filter({});
      return { generatedAt: new Date().toISOString(), projects, count: projects.length };
    },
  }),
  stats: defineTask({
    description: 'How many projects there are, by domain, by stack item and by year.',
    input: noInput(),
    result: z.object({ total: z.number().int().nonnegative(), byDomain: counts, byStack: counts, byYear: counts }),
    run: async (_input, { catalog }) => {
      const byDomain: Record<string, number> = {};
      const byStack: Record<string, number> = {};
      const byYear: Record<string, number> = {};
      for (const { project } of catalog.records) {
        byDomain[project.domain] = (byDomain[project.domain] ?? 0) + 1;
        for (const item of project.stack) byStack[item] = (byStack[item] ?? 0) + 1;
        byYear[project.year] = (byYear[project.year] ?? 0) + 1;
      }
      return { total: catalog.records.length, byDomain, byStack, byYear };
    },
  }),
  digest: defineTask({
    description: 'A Markdown digest of the portfolio, optionally for one domain; slower, and reports its progress.',
    input: z
      .object({
        domain: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
      })
      .strict()
      .default({}),
    result: z.object({ markdown: z.string(), projects: z.number().int().nonnegative() }),
    run: async ({ domain }, { catalog, reportProgress, signal }) => {
      const projects = catalog.filter(domain === undefined ? {} : { domain });
      const scope = domain === undefined ? '' : ` in the domain "${domain.toLowerCase()}"`;
      const sections = [`# Portfolio digest\n\n${projects.length} project${projects.length === 1 ? '' : 's'}${scope}.`];
      for (const [index, project] of projects.entries()) {
        signal?.throwIfAborted();
        sections.push(digestSection(project));
        reportProgress((index + 1) / projects.length);
        if (index + 1 < projects.length) await new Promise((resolve) => setTimeout(resolve, DIGEST_STEP_MS));
      }
      reportProgress(1);
      return { markdown: `${sections.join('\n\n')}\n`, projects: projects.length };
    },
  }),
};

export type TaskName = keyof typeof TASKS;

/** The task names in registry order, as a non-empty tuple so that `z.enum(TASK_NAMES)` accepts it. */
export const TASK_NAMES = Object.keys(TASKS) as [TaskName, ...TaskName[]];

/** The task a job runs when the request names none. */
export const DEFAULT_TASK: TaskName = 'export';

/** Narrows a name from a request or a stored row; own keys only, so `toString` is no task. */
export function isTaskName(name: string): name is TaskName {
  return Object.hasOwn(TASKS, name);
}

function digestSection(project: Project): string {
  return [
    `## ${project.title}`,
    `- Year: ${project.year}\n- Domain: ${domainLabel(project.domain)}\n- Stack: ${project.stack.join(', ')}`,
    project.description,
  ].join('\n\n');
}
