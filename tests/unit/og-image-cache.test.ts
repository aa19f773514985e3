import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCacheCounts, contentKey } from '../../src/lib/build-cache.ts';
import {
  drawCoverOgImage,
  drawOgImage,
  renderCoverOgImage,
  renderOgImage,
  type OgCard,
} from '../../src/lib/og-image.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const cacheRoot = mkdtempSync(path.join(tmpdir(), 'og-cache-test-'));
let run = 0;

/** A fresh, empty cache folder for each test, and counts that start from zero. */
beforeEach(() => {
  process.env.BUILD_CACHE_DIR = path.join(cacheRoot, String(run++));
  const counts = buildCacheCounts('og');
  counts.made = 0;
  counts.reused = 0;
});
afterAll(() => {
  delete process.env.BUILD_CACHE_DIR;
  rmSync(cacheRoot, { recursive: true, force: true });
});

/** The entries the cache holds (each under a two-character folder). */
function cachedEntries(): string[] {
  const dir = path.join(process.env.BUILD_CACHE_DIR!, 'og');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** Cards as a site of a few projects gives them. */
const cards: OgCard[] = ['Tidewatch', 'Leakhound', 'Fika Booking', 'Elpris Tracker', 'Backup Shepherd'].map(
  (title, index) => ({
    eyebrow: 'Ada Lindqvist',
    title,
    summary: `Project ${index}: a small tool that does one thing well.`,
    facts: [`Web · ${2018 + index}`, 'TypeScript · Node.js'],
  }),
);

describe('the Open Graph image cache', () => {
  it('draws each card once, and a second build with one card edited redraws only that one', async () => {
    const first = await Promise.all(cards.map(renderOgImage));
    expect(buildCacheCounts('og')).toEqual({ made: cards.length, reused: 0 });
    expect(cachedEntries()).toHaveLength(cards.length);

    const edited = cards.map((card, index) =>
      index === 2 ? { ...card, summary: `${card.summary} Now with a waitlist.` } : card,
    );
    const second = await Promise.all(edited.map(renderOgImage));
    expect(buildCacheCounts('og')).toEqual({ made: cards.length + 1, reused: cards.length - 1 });
    expect(cachedEntries()).toHaveLength(cards.length + 1);
    expect(second.filter((png, index) => !png.equals(first[index]!))).toHaveLength(1);
    expect(second[2]!.equals(first[2]!)).toBe(false);
  });

  it('gives what it read back byte for byte as a fresh draw', async () => {
    const drawn = await renderOgImage(cards[0]!);
    const readBack = await renderOgImage(cards[0]!);
    expect(buildCacheCounts('og')).toEqual({ made: 1, reused: 1 });
    expect(readBack.equals(drawn)).toBe(true);
    expect(readBack.equals(await drawOgImage(cards[0]!))).toBe(true);
  });

  it('keys each input that changes the image: title, summary, eyebrow (the site name), facts', async () => {
    const base = cards[1]!;
    const variants: OgCard[] = [
      base,
      { ...base, title: `${base.title}!` },
      { ...base, summary: `${base.summary}.` },
      { ...base, eyebrow: 'Another Name' },
      { ...base, facts: [...base.facts, 'Rust'] },
    ];
    for (const card of variants) await renderOgImage(card);
    expect(buildCacheCounts('og').made).toBe(variants.length);
    expect(new Set(cachedEntries()).size).toBe(variants.length);
  });

  it('keys a cover by its bytes, and reads the same PNG back', async () => {
    const cover = path.join(ROOT, 'content/projects/skargard-ferry-times/cover.png');
    const drawn = await renderCoverOgImage(cover);
    const readBack = await renderCoverOgImage(cover);
    expect(buildCacheCounts('og')).toEqual({ made: 1, reused: 1 });
    expect(readBack.equals(await drawCoverOgImage(cover))).toBe(true);
    expect(readBack.equals(drawn)).toBe(true);
    await renderCoverOgImage(path.join(ROOT, 'content/projects/skargard-ferry-times/timetable.png'));
    expect(cachedEntries()).toHaveLength(2);
  });
});

describe('contentKey', () => {
  it('tells apart inputs that join to the same text', () => {
    expect(contentKey(['ab', 'c'])).not.toBe(contentKey(['a', 'bc']));
    expect(contentKey(['a', 'b'])).toBe(contentKey(['a', Buffer.from('b')]));
  });
});
