import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { projectFrontMatterSchema } from '../functions/projects/schema.ts';

/** Projects live outside src so the owner edits only content/; the slug is the file name. */
const projects = defineCollection({
  loader: glob({ pattern: '*.md', base: './content/projects' }),
  schema: projectFrontMatterSchema,
});

export const collections = { projects };
