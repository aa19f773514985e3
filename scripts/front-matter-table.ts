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

/** A field's limits in words, read from its zod checks. */
function limits(schema: z.ZodTypeAny): string {
  if (schema instanceof z.ZodOptional) return limits(schema.unwrap());
  if (schema instanceof z.ZodEffects) {
    const inner = limits(schema.innerType());
    return inner === 'text' ? 'an https:// URL' : inner;
  }
  if (schema instanceof z.ZodString) {
    const { minLength, maxLength } = schema;
    const regex = schema._def.checks.find((check) => check.kind === 'regex');
    if (regex !== undefined && 'message' in regex && regex.message) return regex.message.replace(/^must be /, '');
    return minLength !== null && maxLength !== null ? `text, ${minLength}–${maxLength} characters` : 'text';
  }
  if (schema instanceof z.ZodNumber) return `integer, ${schema.minValue}–${schema.maxValue}`;
  if (schema instanceof z.ZodDate) return 'a date';
  if (schema instanceof z.ZodArray) {
    const { minLength, maxLength } = schema._def;
    return `list of ${minLength?.value ?? 0}–${maxLength?.value ?? '∞'}, each ${limits(schema.element)}`;
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    return `{${Object.entries(shape)
      .map(([key, field]) => `${key}: ${limits(field)}`)
      .join('; ')}}`;
  }
  return schema._def.typeName;
}

/** The README's front-matter table: every field of content/projects/*.md, required or not, with its limits. */
export function frontMatterTable(): string {
  const shape = projectFrontMatterSchema.extend(projectImageFields(z.string())).shape as Record<string, z.ZodTypeAny>;
  const rows = Object.entries(shape).map(
    ([name, schema]) =>
      `| \`${name}\` | ${schema.isOptional() ? 'no' : 'yes'} | ${limits(schema)} | ${MEANING[name] ?? ''} |`,
  );
  return ['| Field | Required | Limits | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${frontMatterTable()}\n`);
