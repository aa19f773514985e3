import { z } from 'zod';
import { domainLabel } from '../functions/projects/project-markdown.ts';
import { IMAGE_FORMATS_TEXT, projectFrontMatterSchema, projectImageFields } from '../functions/projects/schema.ts';

/** What each field is for; the limits come from the schema itself, so the table cannot go stale. */
const MEANING: Record<string, string> = {
  title: 'The project name: page title, card heading.',
  description: 'One or two sentences: cards, search, meta description.',
  stack: 'Technologies; each links to the other projects using it.',
  domain: `Groups projects, e.g. \`developer-tools\`, shown as "${domainLabel('developer-tools')}" (a hyphen after one letter stays: "${domainLabel('e-commerce')}").`,
  year: 'Orders the projects, newest first.',
  repository: 'Link to the source code.',
  website: 'Link to the live project.',
  updated: "When the page last changed (YYYY-MM-DD): the sitemap's lastmod.",
  cover: `Image beside the project file (\`src\`, relative path to a ${IMAGE_FORMATS_TEXT} file; an SVG becomes a PNG at build) with \`alt\` text: leads the page, the card's thumbnail, the og:image.`,
  screenshots: 'Images, each `{src, alt}` in the formats of `cover`, shown in a gallery under the text.',
};

/**
 * The rule a check states in its own message ("must be an https:// URL" -> "an https:// URL"):
 * a pattern or a refinement says what a value is better than its type does.
 */
function ruleInWords(schema: z.ZodType): string | undefined {
  for (const check of schema._zod.def.checks ?? []) {
    const message = check._zod.def.error?.(undefined as never);
    if (typeof message === 'string' && message.startsWith('must be ')) return message.replace(/^must be /, '');
  }
  return undefined;
}

/** A field's limits in words, read from its zod checks. */
function limits(schema: z.ZodType): string {
  if (schema instanceof z.ZodOptional) return limits(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodString) {
    const { minLength, maxLength } = schema;
    return (
      ruleInWords(schema) ??
      (minLength !== null && maxLength !== null ? `text, ${minLength}–${maxLength} characters` : 'text')
    );
  }
  if (schema instanceof z.ZodNumber) return `integer, ${schema.minValue}–${schema.maxValue}`;
  if (schema instanceof z.ZodDate) return 'a date';
  if (schema instanceof z.ZodArray) {
    const bound = (kind: string) => {
      const check = schema._zod.def.checks?.find((candidate) => candidate._zod.def.check === kind);
      return (check?._zod.def as { minimum?: number; maximum?: number } | undefined) ?? {};
    };
    const [min, max] = [bound('min_length').minimum ?? 0, bound('max_length').maximum ?? '∞'];
    return `list of ${min}–${max}, each ${limits(schema.element as z.ZodType)}`;
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    return `{${Object.entries(shape)
      .map(([key, field]) => `${key}: ${limits(field)}`)
      .join('; ')}}`;
  }
  return schema._zod.def.type;
}

/** The README's front-matter table: every field of content/projects/*.md, required or not, with its limits. */
export function frontMatterTable(): string {
  const shape = projectFrontMatterSchema.extend(projectImageFields(z.string())).shape as Record<string, z.ZodType>;
  const rows = Object.entries(shape).map(
    ([name, schema]) =>
      `| \`${name}\` | ${schema.isOptional() ? 'no' : 'yes'} | ${limits(schema)} | ${MEANING[name] ?? ''} |`,
  );
  return ['| Field | Required | Limits | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${frontMatterTable()}\n`);
