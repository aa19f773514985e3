import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { escapeSvgText, ogImageAlt, ogImageSvg, OG_IMAGE_SIZE, drawOgImage, wrapText } from '../../src/lib/og-image.ts';

const card = {
  eyebrow: 'Ada Lindqvist',
  title: 'Ferry <Times> & "Tides"',
  summary: 'A fast, offline-friendly timetable site for the archipelago ferries.',
  facts: ['Web · 2017', 'JavaScript · Vue.js'],
};

describe('wrapText', () => {
  it('breaks between words within the width', () => {
    expect(wrapText('one two three four five', 9, 5)).toEqual(['one two', 'three', 'four five']);
  });

  it('ends the last allowed line with an ellipsis when text is left over', () => {
    expect(wrapText('one two three four five', 9, 2)).toEqual(['one two', 'three…']);
  });

  it('cuts a word longer than a line', () => {
    expect(wrapText('abcdefghijkl', 5, 1)).toEqual(['abcd…']);
  });
});

describe('the card', () => {
  it('escapes text, so a title cannot break the SVG', () => {
    expect(escapeSvgText('<a href="x">&\'')).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
    const svg = ogImageSvg(card);
    expect(svg).toContain('Ferry &#60;Times&#62; &#38; &#34;Tides&#34;');
    expect(svg).not.toContain('<Times>');
  });

  it('renders to a PNG of 1200x630', async () => {
    const metadata = await sharp(await drawOgImage(card)).metadata();
    expect(metadata).toMatchObject({ format: 'png', ...OG_IMAGE_SIZE });
  });

  it('has a text alternative naming everything it shows', () => {
    const alt = ogImageAlt(card);
    for (const text of [card.title, card.summary, ...card.facts]) expect(alt).toContain(text);
  });
});
