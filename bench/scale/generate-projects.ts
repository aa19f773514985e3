/**
 * Projects for measuring at size: `count` projects in all, the owner's own first, the rest made
 * from them. Each made project takes a template's text with its own title, slug, year and a few
 * words of its own (so the search index grows with the count, as real write-ups would), and
 * leaves out the template's images (a made project has none; its Open Graph card is still drawn).
 * Deterministic: the same count gives the same files.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'sen', 'tor', 'vi', 'ul', 'ne', 'bro', 'fa', 'gil', 'hu', 'jo', 'pe', 'sta'];

/** A made-up word for the n-th project (`karamisen`...), different for every n. */
export function madeUpWord(n: number): string {
  let word = '';
  let rest = n + SYLLABLES.length; // at least two syllables
  while (rest > 0) {
    word += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return word;
}

interface Template {
  slug: string;
  frontMatter: string[];
  body: string;
}

function readTemplates(projectsDir: string): Template[] {
  return readdirSync(projectsDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const text = readFileSync(path.join(projectsDir, name), 'utf8');
      const [, frontMatter = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
      return { slug: name.slice(0, -3), frontMatter: frontMatter.split('\n'), body };
    });
}

/** The template's front matter with its title and year replaced and its images left out. */
function madeFrontMatter(template: Template, title: string, year: number): string[] {
  const lines: string[] = [];
  let inImages = false;
  for (const line of template.frontMatter) {
    if (/^(cover|screenshots):/.test(line)) {
      inImages = true;
      continue;
    }
    if (inImages && /^\s/.test(line)) continue;
    inImages = false;
    if (line.startsWith('title:')) lines.push(`title: ${title}`);
    else if (line.startsWith('year:')) lines.push(`year: ${year}`);
    else if (!line.startsWith('updated:')) lines.push(line);
  }
  return lines;
}

/** Writes projects into `projectsDir` (which holds the owner's) until there are `count`; returns how many it wrote. */
export function generateProjects(projectsDir: string, count: number): number {
  const templates = readTemplates(projectsDir);
  let written = 0;
  for (let n = templates.length; n < count; n++) {
    const template = templates[n % templates.length]!;
    const word = madeUpWord(n);
    const name = word[0]!.toUpperCase() + word.slice(1);
    const title = `${name} ${template.frontMatter.find((line) => line.startsWith('title:'))!.slice(7)}`.slice(0, 80);
    const year = 2010 + (n % 16);
    const body = `${name} is the ${word} edition of this project, number ${n}.\n\n${template.body}`;
    const text = ['---', ...madeFrontMatter(template, title, year), '---', '', body].join('\n');
    writeFileSync(path.join(projectsDir, `${template.slug}-${word}.md`), text);
    written++;
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count] = process.argv.slice(2);
  if (dir === undefined || !(Number(count) > 0)) {
    process.stderr.write('usage: node --import tsx bench/scale/generate-projects.ts <content/projects dir> <count>\n');
    process.exit(2);
  }
  const written = generateProjects(dir, Number(count));
  process.stdout.write(`${written} projects written into ${dir}\n`);
}
