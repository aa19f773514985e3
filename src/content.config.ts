import path from 'node:path';
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { PROJECTS_DIR } from '../functions/content/check-content.ts';
import { projectFrontMatterSchema, projectImageFields } from '../functions/projects/schema.ts';
import { svgAsPng } from './lib/svg-images.ts';

/**
 * Projects live outside src so the owner edits only content/; the slug is the file name. Images
 * are paths relative to the project file, which `image()` resolves for Astro's image pipeline; an
 * SVG is rendered to PNG first (the pipeline passes SVGs through untouched).
 */
const projects = defineCollection({
  loader: glob({ pattern: '*.md', base: `./${PROJECTS_DIR}` }),
  schema: ({ image }) =>
    projectFrontMatterSchema.extend(projectImageFields(svgAsPng(image(), path.resolve(PROJECTS_DIR)))),
});

/**
 * Documentation pages: content/docs/<path>.md is published at /<path> and as Markdown at
 * /<path>.md. Facts (quotas, error codes, operations...) are written as {{fact}} slots and
 * filled at build from the code that defines them (functions/discovery/doc-facts.ts).
 */
const docs = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './content/docs' }),
  schema: z
    .object({
      title: z.string().min(3).max(80),
      description: z.string().min(20).max(200),
      /** Order in navigation and llms.txt; lower first. */
      order: z.number().int().default(100),
      /** Listed under "Optional" in llms.txt. */
      optional: z.boolean().default(false),
    })
    .strict(),
});

export const collections = { projects, docs };
