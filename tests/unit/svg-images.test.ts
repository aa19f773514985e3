import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderSvgToPng, SVG_RENDER_WIDTH, svgAsPng } from '../../src/lib/svg-images.ts';

const DRAWING =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200"><rect width="400" height="200" fill="#cc0000"/><rect x="150" y="50" width="100" height="100" fill="#0000cc"/></svg>';

/** A fresh repository root with its content/projects folder. */
function project(): { root: string; projects: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'portfolio-svg-'));
  const projects = path.join(root, 'content/projects');
  mkdirSync(projects, { recursive: true });
  return { root, projects };
}

async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

describe('an SVG image', () => {
  it('is rendered to a PNG as wide as the widest rendition a page asks for, sharp rather than upscaled', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-svg-'));
    writeFileSync(path.join(dir, 'cover.svg'), DRAWING);
    const png = await renderSvgToPng(path.join(dir, 'cover.svg'), path.join(dir, 'out'));
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: SVG_RENDER_WIDTH, height: 800 });
    expect(await pixel(png, 10, 10)).toEqual([204, 0, 0]);
    expect(await pixel(png, 800, 400)).toEqual([0, 0, 204]);
    // Drawn at the target size: the square's edge is one sharp step, not a blurred ramp.
    expect(await pixel(png, 599, 400)).toEqual([204, 0, 0]);
    expect(await pixel(png, 600, 400)).toEqual([0, 0, 204]);
  });

  it('is rendered once per content: the same SVG gives the same file, an edited one a new file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portfolio-svg-'));
    const svg = path.join(dir, 'cover.svg');
    writeFileSync(svg, DRAWING);
    const first = await renderSvgToPng(svg, path.join(dir, 'out'));
    expect(await renderSvgToPng(svg, path.join(dir, 'out'))).toBe(first);
    writeFileSync(svg, DRAWING.replace('#0000cc', '#00cc00'));
    const edited = await renderSvgToPng(svg, path.join(dir, 'out'));
    expect(edited).not.toBe(first);
    expect(readdirSync(path.join(dir, 'out')).sort()).toEqual([path.basename(first), path.basename(edited)].sort());
  });
});

describe('an image path of the front matter', () => {
  const passOn = svgAsPng(z.string(), '/unused');

  it('is passed on as written when it is not an SVG', async () => {
    expect(await passOn.parseAsync('./shop/cover.png')).toBe('./shop/cover.png');
  });

  it('names the PNG rendered from an SVG, relative to the project files as Astro resolves it', async () => {
    const { root, projects } = project();
    const dir = path.join(projects, 'shop');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'cover.svg'), DRAWING);
    const src = await svgAsPng(z.string(), projects, root).parseAsync('./shop/cover.svg');
    expect(src).toMatch(/^\.\.\/\.\.\/\.astro\/rendered-svg\/cover-[0-9a-f]{16}\.png$/);
    expect((await sharp(path.resolve(projects, src)).metadata()).format).toBe('png');
  });

  it('fails with the file named when the SVG cannot be rendered', async () => {
    const { root, projects } = project();
    writeFileSync(path.join(projects, 'broken.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><rect');
    const result = await svgAsPng(z.string(), projects, root).safeParseAsync('./broken.svg');
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toMatch(/^\.\/broken\.svg cannot be rendered to PNG: /);
  });
});
