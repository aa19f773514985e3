import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateProjects, madeUpWord } from '../../bench/scale/generate-projects.ts';
import { checkContent } from '../../functions/content/check-content.ts';

describe('projects made for measuring at size (bench/scale)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'scale-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes distinct words', () => {
    const words = new Set(Array.from({ length: 5000 }, (_, n) => madeUpWord(n)));
    expect(words.size).toBe(5000);
  });

  it('tops the owner’s projects up to the count, each valid content, deterministically', () => {
    cpSync('content', path.join(root, 'content'), { recursive: true });
    const projects = path.join(root, 'content', 'projects');
    const owners = readdirSync(projects).filter((name) => name.endsWith('.md')).length;

    expect(generateProjects(projects, 250)).toBe(250 - owners);
    const files = readdirSync(projects).filter((name) => name.endsWith('.md'));
    expect(files).toHaveLength(250);
    expect(checkContent(root)).toEqual([]);
    // Made projects carry no images and their own word.
    const made = files.find((name) => name.startsWith('skargard-ferry-times-'))!;
    const text = readFileSync(path.join(projects, made), 'utf8');
    expect(text).not.toMatch(/^(cover|screenshots):/m);
    expect(text).toContain(made.slice('skargard-ferry-times-'.length, -3));
    // The same count again writes the same files.
    const again = mkdtempSync(path.join(tmpdir(), 'scale-again-'));
    cpSync('content', path.join(again, 'content'), { recursive: true });
    generateProjects(path.join(again, 'content', 'projects'), 250);
    expect(readFileSync(path.join(again, 'content', 'projects', made), 'utf8')).toBe(text);
    rmSync(again, { recursive: true, force: true });
  });
});
