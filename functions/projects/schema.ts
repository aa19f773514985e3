import { z } from 'zod';

/** A slug is the project's file name: lower-case letters, digits and single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 80;

const httpsUrl = z
  .string()
  .url()
  .refine((value) => value.startsWith('https://'), { message: 'must be an https:// URL' });

/**
 * Front matter of content/projects/*.md. Astro enforces it at build (content.config.ts), so a
 * bad file fails the build with the file and field named.
 */
export const projectFrontMatterSchema = z
  .object({
    title: z.string().trim().min(3).max(80),
    description: z.string().trim().min(20).max(200),
    stack: z.array(z.string().trim().min(1).max(40)).min(1).max(12),
    domain: z.string().regex(/^[a-z]+(?:-[a-z]+)*$/, 'must be a lower-case kebab-case word such as "developer-tools"'),
    year: z.number().int().min(1990).max(2100),
    repository: httpsUrl.optional(),
    website: httpsUrl.optional(),
    /** When the project page last changed; feeds the sitemap's lastmod. */
    updated: z.coerce.date().optional(),
  })
  .strict();

export type ProjectFrontMatter = z.infer<typeof projectFrontMatterSchema>;

/** The Project resource as the API returns it (SPEC.md section 2, plus documented extras). */
export const projectSchema = z.object({
  slug: z.string().regex(SLUG_PATTERN),
  title: z.string(),
  description: z.string(),
  stack: z.array(z.string()),
  domain: z.string(),
  year: z.number().int(),
  repository: z.string().url().nullable(),
  website: z.string().url().nullable(),
  url: z.string().url(),
  updated: z.string().nullable(),
});

export type Project = z.infer<typeof projectSchema>;

/** A project with its Markdown body, as the build hands it to the backend. */
export interface ProjectRecord {
  project: Project;
  markdown: string;
}
