import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { parseSite, SITE_FILE } from '../config/site.ts';
import {
  IMAGE_EXTENSIONS,
  IMAGE_FORMATS_TEXT,
  projectFrontMatterSchema,
  projectImageFields,
} from '../projects/schema.ts';
import { ContentError, contentProblems, type ContentProblem } from '../config/content-error.ts';
import { PLAIN_WORDS } from '../config/field-problems.ts';

/** Where the projects live, relative to the repository; each `<slug>.md` there is one project. */
export const PROJECTS_DIR = 'content/projects';

/**
 * Every problem in the owner's content, one ContentError per bad file: the build checks all of
 * them first, because Astro stops at the first bad file. Uses the very schemas the build and the
 * server use; images are checked as files here and read by Astro's `image()` at build.
 */
export function checkContent(root: string): ContentError[] {
  const errors: ContentError[] = [];
  const site = siteProblems(root);
  if (site.length > 0) errors.push(new ContentError(SITE_FILE, site));
  const projectsDir = path.join(root, PROJECTS_DIR);
  const files = readdirSync(projectsDir).filter((name) => name.endsWith('.md'));
  for (const name of files.sort()) {
    const file = path.join(projectsDir, name);
    const problems = projectProblems(readFileSync(file, 'utf8'), path.dirname(file));
    if (problems.length > 0) errors.push(new ContentError(`${PROJECTS_DIR}/${name}`, problems));
  }
  return errors;
}

function siteProblems(root: string): ContentProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(root, SITE_FILE), 'utf8'));
  } catch (error) {
    return [{ field: 'JSON', problem: `cannot be read: ${(error as Error).message}` }];
  }
  try {
    parseSite(value);
    return [];
  } catch (error) {
    if (error instanceof ContentError) return [...error.problems];
    throw error;
  }
}

/** The problems of one project file's text; `dir` is its folder, which image paths are relative to. */
export function projectProblems(text: string, dir: string): ContentProblem[] {
  const block = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (block === null) {
    return [
      { field: 'front matter', problem: 'is missing: the file must start with a YAML block between two --- lines' },
    ];
  }
  const document = parseDocument(block[1]!);
  if (document.errors.length > 0) {
    return document.errors.map((error) => ({
      field: 'front matter',
      // yaml counts lines from the block's first; the file has the opening --- above it.
      problem: `is not valid YAML at line ${(error.linePos?.[0].line ?? 0) + 1}: ${error.message.split(' at line ')[0]}`,
    }));
  }
  const schema = projectFrontMatterSchema.extend(projectImageFields(imageFileIn(dir)));
  const result = schema.safeParse(document.toJS(), PLAIN_WORDS);
  return result.success ? [] : contentProblems(result.error, 'must be a YAML mapping of fields');
}

/** An image path as Astro's `image()` takes it: relative to the project file, naming a file that exists. */
function imageFileIn(dir: string) {
  return z
    .string()
    .refine((src) => (IMAGE_EXTENSIONS as readonly string[]).includes(path.extname(src).toLowerCase()), {
      message: `must name a ${IMAGE_FORMATS_TEXT} file (the accepted image formats)`,
    })
    .refine((src) => existsSync(path.resolve(dir, src)), {
      message: 'names no file (the path is relative to the project file, e.g. ./my-project/cover.png)',
    });
}
