import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { ICON_SOURCE, type IconSize } from '../../functions/site/site-icons.ts';

/**
 * The site icon (public/favicon.svg) as a square PNG of `size` pixels. An SVG is rasterised at its
 * own width at 72 dpi, so the density is raised until that width is `size`: the drawing is
 * rendered sharp at every size rather than scaled up from a small bitmap.
 */
export async function siteIconPng(size: IconSize): Promise<Buffer> {
  const svg = await readFile(path.join(process.cwd(), 'public', ICON_SOURCE));
  const { width = size } = await sharp(svg).metadata();
  return sharp(svg, { density: (72 * size) / width })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}
