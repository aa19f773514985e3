import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/server.ts';

/** The example project with a cover and a screenshot, and its images as its front matter names them. */
const SLUG = 'skargard-ferry-times';
const CLIENT = path.join(ROOT, 'dist/client');
const source = readFileSync(path.join(ROOT, `content/projects/${SLUG}.md`), 'utf8');
const frontMatter = parse(/^---\n([\s\S]*?)\n---/.exec(source)![1]!) as {
  cover: { src: string; alt: string };
  screenshots: { src: string; alt: string }[];
};
const page = readFileSync(path.join(CLIENT, `projects/${SLUG}.html`), 'utf8');
const pictures = [...page.matchAll(/<picture>([\s\S]*?)<\/picture>/g)].map((match) => match[1]!);

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

function unescape(text: string): string {
  return text.replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, '&');
}

describe('a project with images, as built', () => {
  it('shows the cover and each screenshot as a <picture> with AVIF and WebP at several widths', () => {
    expect(pictures).toHaveLength(1 + frontMatter.screenshots.length);
    for (const picture of pictures) {
      const sources = [...picture.matchAll(/<source[^>]*>/g)].map((match) => match[0]);
      expect(sources.map((tag) => attribute(tag, 'type'))).toEqual(['image/avif', 'image/webp']);
      for (const tag of sources) expect(attribute(tag, 'srcset')!.split(',').length).toBeGreaterThan(1);
    }
  });

  it('sets width, height and the alt text of the front matter; only the cover loads eagerly', async () => {
    const images = pictures.map((picture) => /<img[^>]*>/.exec(picture)![0]);
    const figures = [frontMatter.cover, ...frontMatter.screenshots];
    for (const [index, img] of images.entries()) {
      const { width, height } = await sharp(path.join(ROOT, 'content/projects', figures[index]!.src)).metadata();
      expect(unescape(attribute(img, 'alt')!)).toBe(figures[index]!.alt);
      expect(attribute(img, 'width')).toBe(String(width));
      expect(attribute(img, 'height')).toBe(String(height));
      expect(attribute(img, 'loading')).toBe(index === 0 ? 'eager' : 'lazy');
    }
  });

  it('shows the cover as a lazy thumbnail on the project card', () => {
    const home = readFileSync(path.join(CLIENT, 'index.html'), 'utf8');
    const card = /<li class="project-card">(?:(?!<\/li>)[\s\S])*?<\/li>/g;
    const withCover = [...home.matchAll(card)].map((match) => match[0]).filter((html) => html.includes('<picture'));
    expect(withCover).toHaveLength(1);
    expect(withCover[0]).toContain(`/projects/${SLUG}`);
    expect(withCover[0]).toContain('type="image/avif"');
    expect(attribute(/<img[^>]*>/.exec(withCover[0]!)![0], 'loading')).toBe('lazy');
  });

  it('uses the cover, cropped to 1200x630, as its og:image, described by the cover’s alt text', async () => {
    const ogUrl = attribute(/<meta property="og:image"[^>]*>/.exec(page)![0], 'content')!;
    expect(new URL(ogUrl).pathname).toBe(`/og/projects/${SLUG}.png`);
    expect(unescape(attribute(/<meta property="og:image:alt"[^>]*>/.exec(page)![0], 'content')!)).toBe(
      frontMatter.cover.alt,
    );
    const og = await sharp(path.join(CLIENT, `og/projects/${SLUG}.png`))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(og.info).toMatchObject({ width: 1200, height: 630 });
    const cropped = await sharp(path.join(ROOT, 'content/projects', frontMatter.cover.src))
      .resize({ width: 1200, height: 630, fit: 'cover' })
      .raw()
      .toBuffer();
    expect(meanDifference(og.data, cropped)).toBeLessThan(2);
  });
});

/** Mean absolute difference per channel, 0-255: near 0 for the same picture. */
function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += Math.abs(a[index]! - b[index]!);
  return sum / a.length;
}
