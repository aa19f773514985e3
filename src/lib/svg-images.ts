import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';

/**
 * The width an SVG image is rendered at: the widest rendition a project page asks for (the cover
 * in src/pages/projects/[slug].astro), so the image pipeline never has to upscale the PNG.
 */
export const SVG_RENDER_WIDTH = 1600;

/** Where rendered SVGs are kept, relative to the project root: Astro's own generated folder, ignored by git. */
const RENDERED_DIR = '.astro/rendered-svg';

/**
 * An SVG image as a PNG file in `outDir`, rendered by sharp (librsvg, as the Open Graph images are)
 * at SVG_RENDER_WIDTH or the SVG's own width if it is wider. The file is named after the SVG's
 * content, so an unchanged SVG is rendered once and an edited one never reuses a stale PNG.
 */
export async function renderSvgToPng(svgFile: string, outDir: string): Promise<string> {
  const svg = readFileSync(svgFile);
  const hash = createHash('sha256').update(svg).digest('hex').slice(0, 16);
  const png = path.join(outDir, `${path.basename(svgFile, path.extname(svgFile))}-${hash}.png`);
  if (existsSync(png)) return png;
  const { width } = await sharp(svg).metadata();
  if (!width) throw new Error('it has no width (set width and height, or a viewBox)');
  // librsvg renders at 72 dpi by default: raise the density to reach the width without a blurry upscale.
  const density = 72 * Math.max(1, SVG_RENDER_WIDTH / width);
  const bytes = await sharp(svg, { density }).png().toBuffer();
  mkdirSync(outDir, { recursive: true });
  const partial = `${png}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, png);
  return png;
}

/**
 * An image path of a project's front matter (relative to `projectsDir`) that Astro's `image()`
 * can read: a raster path is passed on as written; an SVG is rendered to PNG first and the PNG's
 * path handed on instead, so every page, card and og:image built from it is a raster image (an
 * SVG opened on its own would run its scripts in the site's origin). A broken SVG fails the
 * build naming the file.
 */
export function svgAsPng<Source extends z.ZodType>(source: Source, projectsDir: string, root = process.cwd()) {
  return (
    z
      .string()
      .transform(async (src, ctx) => {
        if (path.extname(src).toLowerCase() !== '.svg') return src;
        try {
          const png = await renderSvgToPng(path.resolve(projectsDir, src), path.join(root, RENDERED_DIR));
          return path.relative(projectsDir, png).split(path.sep).join('/');
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: `${src} cannot be rendered to PNG: ${(error as Error).message}` });
          return z.NEVER;
        }
      })
      // Astro types image() by what it gives (image metadata), though it takes the path text.
      .pipe(source as unknown as z.ZodType<z.output<Source>, string>)
  );
}
