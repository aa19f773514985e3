import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSite } from '../../functions/config/site.ts';
import { projectProblems } from '../../functions/content/check-content.ts';
import { IMAGE_EXTENSIONS, projectFrontMatterSchema, projectImageFields } from '../../functions/projects/schema.ts';
import { frontMatterTable } from '../../scripts/front-matter-table.ts';
import { z } from 'zod';
import { contentHash, exampleFilesIn, exampleHashes } from '../../scripts/init/example-content.ts';
import { STARTER_TEMPLATE } from '../../scripts/init/plan-init.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PROJECTS = path.join(ROOT, 'content/projects');
const GOOD =
  'title: Engine\ndescription: A mechanical general-purpose computer, designed on paper.\nstack: [Brass]\ndomain: hardware\nyear: 1990\n';

describe('a bad content/site.json', () => {
  it('is reported with the file, every bad field and its rule', () => {
    const site = JSON.parse(readFileSync(path.join(ROOT, 'content/site.json'), 'utf8'));
    const bad = {
      ...site,
      siteUrl: 'ada.example',
      tagline: '',
      links: [{ label: 'Web', url: 'nope' }],
      twitter: '@ada',
    };
    expect(() => parseSite(bad)).toThrow(
      [
        'content/site.json is not valid:',
        '  - tagline: must be at least 1 character',
        '  - siteUrl: must be an absolute http:// or https:// URL without query, fragment or credentials, such as https://ada.example',
        '  - links[0].url: must be an absolute URL such as https://github.com/ada',
        '  - twitter: is not a known field (check its spelling)',
      ].join('\n'),
    );
  });
});

describe('a project file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-check-'));

  it('passes when its front matter fits the schema', () => {
    expect(projectProblems(`---\n${GOOD}---\nBody.\n`, dir)).toEqual([]);
  });

  it('reports every bad field, not only the first', () => {
    const problems = projectProblems('---\ntitle: E\ndescription: Short.\nstack: []\nyear: soon\n---\n', dir);
    expect(problems.map((problem) => problem.field)).toEqual(['title', 'description', 'stack', 'domain', 'year']);
    expect(problems).toContainEqual({ field: 'domain', problem: 'is required' });
  });

  it('reports a YAML error with its line in the file', () => {
    const [problem] = projectProblems('---\ntitle: Engine\ndescription: "unterminated\n---\n', dir);
    expect(problem).toMatchObject({ field: 'front matter' });
    expect(problem!.problem).toMatch(/^is not valid YAML at line \d+: .*quote/);
  });

  it('reports a missing front matter block', () => {
    expect(projectProblems('# Just Markdown\n', dir)[0]!.problem).toMatch(/^is missing/);
  });

  it('wants each image to exist beside it and to have alt text', () => {
    mkdirSync(path.join(dir, 'engine'));
    writeFileSync(path.join(dir, 'engine/cover.png'), '');
    const withImages = `---\n${GOOD}cover: {src: ./engine/cover.png}\nscreenshots: [{src: ./engine/gone.png, alt: The mill}]\n---\n`;
    expect(projectProblems(withImages, dir)).toEqual([
      { field: 'cover.alt', problem: 'is required' },
      { field: 'screenshots[0].src', problem: expect.stringMatching(/^names no file/) },
    ]);
  });

  it('accepts an SVG image, and names the accepted formats for an image in any other', () => {
    mkdirSync(path.join(dir, 'drawn'));
    writeFileSync(path.join(dir, 'drawn/cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>');
    writeFileSync(path.join(dir, 'drawn/shot.bmp'), '');
    const withImages = `---\n${GOOD}cover: {src: ./drawn/cover.svg, alt: A drawing}\nscreenshots: [{src: ./drawn/shot.bmp, alt: The mill}]\n---\n`;
    expect(projectProblems(withImages, dir)).toEqual([
      {
        field: 'screenshots[0].src',
        problem: 'must name a .png, .jpg, .jpeg, .webp, .avif, .gif, .tiff or .svg file (the accepted image formats)',
      },
    ]);
  });

  it('accepts every example project, parsed as the check parses it (the build parses with another YAML library)', () => {
    for (const name of readdirSync(PROJECTS).filter((file) => file.endsWith('.md'))) {
      expect(projectProblems(readFileSync(path.join(PROJECTS, name), 'utf8'), PROJECTS), name).toEqual([]);
    }
  });
});

describe('npm run init', () => {
  it('knows the current version of every example file (run scripts/record-example-content.ts after editing one)', () => {
    const hashes = exampleHashes();
    const unknown = exampleFilesIn(ROOT).filter((file) => !hashes[file]?.includes(contentHash(path.join(ROOT, file))));
    expect(unknown).toEqual([]);
  });

  it('writes a starter project that explains every front-matter field', () => {
    const starter = readFileSync(STARTER_TEMPLATE, 'utf8');
    const fields = Object.keys(projectFrontMatterSchema.extend(projectImageFields(z.string())).shape);
    for (const field of fields) expect(starter, field).toMatch(new RegExp(`^#? ?${field}:`, 'm'));
  });
});

describe('the accepted image formats', () => {
  it('are listed wherever the front matter is explained: the README table, the starter project, the schema', () => {
    const coverRow = frontMatterTable()
      .split('\n')
      .find((row) => row.startsWith('| `cover`'))!;
    const starter = readFileSync(STARTER_TEMPLATE, 'utf8');
    const { cover } = projectImageFields(z.string());
    const description = cover.unwrap().shape.src.description!;
    for (const extension of IMAGE_EXTENSIONS) {
      expect(coverRow, extension).toContain(extension);
      expect(starter, extension).toContain(extension);
      expect(description, extension).toContain(extension);
    }
    expect(IMAGE_EXTENSIONS).toContain('.svg');
  });
});

describe('the code', () => {
  it('names no gendered pronoun: the owner is named from content/site.json or called the owner', () => {
    const pronoun = /\b(she|her|hers|herself|he|him|his|himself)\b/i;
    const found: string[] = [];
    for (const top of ['functions', 'src']) {
      for (const file of readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|astro|mjs)$/.test(file)) continue;
        readFileSync(path.join(ROOT, top, file), 'utf8')
          .split('\n')
          .forEach((line, index) => {
            if (pronoun.test(line)) found.push(`${top}/${file}:${index + 1}: ${line.trim()}`);
          });
      }
    }
    expect(found).toEqual([]);
  });
});
