import { z } from 'zod';

/** Longer than any cursor we issue (cursor.ts); anything past it is refused before decoding. */
export const CURSOR_MAX_LENGTH = 512;

/** A slug is the project's file name: lower-case letters, digits and single hyphens. */
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MAX_LENGTH = 80;

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

/** The most screenshots a project page shows. */
const SCREENSHOTS_MAX = 8;

/**
 * The file extensions a cover or screenshot may have: the formats Astro's image pipeline reads
 * (VALID_SUPPORTED_FORMATS in astro/dist/assets/consts.js), where an SVG is first rendered to
 * PNG at build (src/lib/svg-images.ts), so pages, cards and the og:image use raster images only.
 */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.avif', '.gif', '.tiff', '.svg'] as const;

/** The accepted image formats in words, as the docs, the starter project and the content check say them. */
export const IMAGE_FORMATS_TEXT = `${IMAGE_EXTENSIONS.slice(0, -1).join(', ')} or ${IMAGE_EXTENSIONS.at(-1)}`;

/**
 * A project's optional images: a cover (the page's lead image, the card's thumbnail and the
 * og:image) and screenshots, each a file beside the project with its text alternative. `source`
 * checks the file: Astro's `image()` at build (content.config.ts), a path check in the content check.
 */
export function projectImageFields<Source extends z.ZodType>(source: Source) {
  const figure = z
    .object({
      src: source.describe(
        `The image file, relative to the project file: a ${IMAGE_FORMATS_TEXT} file (an SVG is rendered to PNG at build).`,
      ),
      alt: z.string().trim().min(3).max(200).describe('What the image shows, for people who cannot see it.'),
    })
    .strict();
  return { cover: figure.optional(), screenshots: z.array(figure).min(1).max(SCREENSHOTS_MAX).optional() };
}

/** The Project resource as the API returns it: the front matter, resolved links, and its page URL. */
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

/** The `limit` of listProjects. */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** Longest domain or stack filter; no project field is longer. */
const FILTER_MAX_LENGTH = 64;

/**
 * The query of listProjects, as published and as enforced. Filters are trimmed before their
 * length is checked; the cursor is checked for its length here and for its tag by CursorCodec.
 */
export const listProjectsQuery = z
  .object({
    limit: z.number().int().min(LIST_LIMIT.min).max(LIST_LIMIT.max).default(LIST_LIMIT.default).describe('Page size.'),
    cursor: z
      .string()
      .max(CURSOR_MAX_LENGTH)
      .optional()
      .describe('pagination.nextCursor of the previous page, exactly as it was returned.'),
    domain: z
      .string()
      .trim()
      .min(1)
      .max(FILTER_MAX_LENGTH)
      .optional()
      .describe('Only projects of this domain (case-insensitive), such as `developer-tools`.'),
    stack: z
      .string()
      .trim()
      .min(1)
      .max(FILTER_MAX_LENGTH)
      .optional()
      .describe('Only projects whose stack has this item (case-insensitive), such as `typescript`.'),
  })
  .strict();

/** The slug in getProject's path. An unknown slug, well-formed or not, is a 404: this only decides whether it is echoed. */
export const slugParameter = z
  .string()
  .regex(SLUG_PATTERN)
  .max(SLUG_MAX_LENGTH)
  .describe('The project slug, such as the last segment of its page URL.');

export const paginationSchema = z.object({
  nextCursor: z
    .string()
    .nullable()
    .describe('Opaque cursor for the next page; null when there is none. It remembers the filter.'),
  hasMore: z.boolean(),
  limit: z.number().int().min(LIST_LIMIT.min).max(LIST_LIMIT.max).optional().describe('Page size in effect.'),
});

/** The 200 answer of listProjects. */
export const projectListSchema = z.object({ data: z.array(projectSchema), pagination: paginationSchema });
