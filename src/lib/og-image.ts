import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { cachedOutput, contentKey } from './build-cache.ts';

/**
 * Open Graph images, drawn at build as SVG and rendered to PNG by sharp (librsvg with the system's
 * fonts). 1200x630 is the size Facebook and X recommend for large link previews (1.91:1).
 */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** What a card shows, top to bottom. */
export interface OgCard {
  /** Small line above the title: the site's name or address. */
  eyebrow: string;
  title: string;
  /** One or two sentences under the title. */
  summary: string;
  /** Short facts at the bottom, such as the domain and year, then the stack. */
  facts: string[];
}

/** Where a card's PNG is published: the site's own, and one per project. */
export function ogImagePath(projectSlug?: string): string {
  return projectSlug === undefined ? '/og/site.png' : `/og/projects/${projectSlug}.png`;
}

/** The image's text alternative (og:image:alt), from the same card the image draws. */
export function ogImageAlt(card: OgCard): string {
  return [`${card.title}: ${card.summary}`, ...card.facts].join(' · ');
}

const MARGIN = 80;
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const TITLE = { size: 68, lineHeight: 80, maxLines: 2 };
const SUMMARY = { size: 32, lineHeight: 44, maxLines: 3 };
const FACT = { size: 26, lineHeight: 40 };
/** Average advance of a glyph in DejaVu Sans, as a share of the font size (bold is wider). */
const GLYPH_WIDTH = { regular: 0.55, bold: 0.63 };

/** Text made safe for SVG character data and attribute values. */
export function escapeSvgText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Greedy word wrap by an estimated line width in characters. SVG 1.1 text does not wrap by itself
 * and librsvg has no text measurement to offer, so the estimate errs on the narrow side; text past
 * the last line ends in an ellipsis.
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (candidate.length <= maxChars) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word.length > maxChars ? `${word.slice(0, maxChars - 1)}…` : word;
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  const room = last.length >= maxChars ? last.slice(0, maxChars - 1) : last;
  kept[maxLines - 1] = `${room.replace(/[\s·,;:]+$/, '')}…`;
  return kept;
}

function charsPerLine(fontSize: number, weight: keyof typeof GLYPH_WIDTH): number {
  return Math.floor((OG_IMAGE_SIZE.width - 2 * MARGIN) / (fontSize * GLYPH_WIDTH[weight]));
}

function textLines(lines: string[], y: number, lineHeight: number, attributes: string): string {
  const spans = lines.map(
    (line, index) => `<tspan x="${MARGIN}" dy="${index === 0 ? 0 : lineHeight}">${escapeSvgText(line)}</tspan>`,
  );
  return `<text x="${MARGIN}" y="${y}" ${attributes}>${spans.join('')}</text>`;
}

/** The card as an SVG document of OG_IMAGE_SIZE. */
export function ogImageSvg(card: OgCard): string {
  const { width, height } = OG_IMAGE_SIZE;
  const title = wrapText(card.title, charsPerLine(TITLE.size, 'bold'), TITLE.maxLines);
  const summary = wrapText(card.summary, charsPerLine(SUMMARY.size, 'regular'), SUMMARY.maxLines);
  const titleY = 210;
  const summaryY = titleY + (title.length - 1) * TITLE.lineHeight + 70;
  const factsTop = height - MARGIN - (card.facts.length - 1) * FACT.lineHeight;
  const facts = card.facts.map((fact) => wrapText(fact, charsPerLine(FACT.size, 'regular'), 1).join(''));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#0f1b2a"/>`,
    `<rect x="0" y="0" width="16" height="${height}" fill="#4fa3e0"/>`,
    `<g font-family="${escapeSvgText(FONT)}">`,
    textLines([card.eyebrow], 110, 0, `font-size="28" font-weight="600" fill="#4fa3e0"`),
    textLines(title, titleY, TITLE.lineHeight, `font-size="${TITLE.size}" font-weight="700" fill="#ffffff"`),
    textLines(summary, summaryY, SUMMARY.lineHeight, `font-size="${SUMMARY.size}" fill="#d5e0ea"`),
    textLines(facts, factsTop, FACT.lineHeight, `font-size="${FACT.size}" fill="#9fb3c8"`),
    '</g>',
    '</svg>',
  ].join('\n');
}

/**
 * What decides a PNG besides its SVG or cover: this drawing code and the renderer. Raise the
 * version when a change here alters the pixels without altering the SVG (sharp's options, say);
 * the SVG itself carries the text, layout, colours and font names.
 */
const OG_DRAWING_VERSION = 1;
const RENDERER = JSON.stringify(sharp.versions);
const OG_CACHE = 'og';

/**
 * The card as PNG bytes, about 13 ms and 65 KB each here. A palette PNG would be half the size but
 * costs ten times the time to quantize; nobody loads these images with the page.
 */
export function drawOgImage(card: OgCard): Promise<Buffer> {
  return sharp(Buffer.from(ogImageSvg(card)))
    .png()
    .toBuffer();
}

/** drawOgImage's PNG, drawn only when no earlier build drew the same card (src/lib/build-cache.ts). */
export function renderOgImage(card: OgCard): Promise<Buffer> {
  const svg = ogImageSvg(card);
  return cachedOutput(OG_CACHE, contentKey(['card', String(OG_DRAWING_VERSION), RENDERER, svg]), () =>
    drawOgImage(card),
  );
}

/**
 * A project's cover as its Open Graph image: scaled to cover OG_IMAGE_SIZE and cropped around
 * the centre, so a preview shows the project itself rather than the text card.
 */
export function drawCoverOgImage(file: string): Promise<Buffer> {
  return sharp(file)
    .resize({ ...OG_IMAGE_SIZE, fit: 'cover', position: 'centre' })
    .png()
    .toBuffer();
}

/** drawCoverOgImage's PNG, keyed by the cover's bytes, drawn only when no earlier build drew it. */
export function renderCoverOgImage(file: string): Promise<Buffer> {
  const cover = readFileSync(file);
  const size = `${OG_IMAGE_SIZE.width}x${OG_IMAGE_SIZE.height}`;
  return cachedOutput(OG_CACHE, contentKey(['cover', String(OG_DRAWING_VERSION), RENDERER, size, cover]), () =>
    drawCoverOgImage(file),
  );
}
