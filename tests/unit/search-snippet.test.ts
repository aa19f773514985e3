import { describe, expect, it } from 'vitest';
import { markdownHeadings, markdownToText } from '../../functions/search/markdown-text.ts';
import { snippet, SNIPPET_MAX_LENGTH } from '../../functions/search/snippet.ts';

const words = (count: number, word = 'filler') => Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');

describe('snippet', () => {
  it('returns a short text whole', () => {
    expect(snippet('A small text.', new Set(['small']))).toBe('A small text.');
  });

  it('cuts a window around the first match, between words, marked with ellipses', () => {
    const text = `${words(60)} the target word here ${words(60, 'tail')}`;
    const result = snippet(text, new Set(['target']));
    expect(result.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
    expect(result).toContain('target word here');
    expect(result.startsWith('…')).toBe(true);
    expect(result.endsWith('…')).toBe(true);
    // Cuts fall on word boundaries: every word shown is whole.
    for (const word of result.replace(/…/g, '').split(' ')) expect(text.split(' ')).toContain(word);
    expect(result.indexOf('target')).toBeLessThan(80);
  });

  it.each([
    ['Postgres', 'postgres'],
    ['Ångström', 'angstrom'],
    ['Éclair', 'eclair'],
    ['C++', 'c++'],
  ])('finds %j by its normalized term %j, whatever its first letter', (word, term) => {
    const text = `${words(60)} ${word} here ${words(60, 'tail')}`;
    expect(snippet(text, new Set([term]))).toContain(`${word} here`);
  });

  it('starts at the beginning when there is no match in the text', () => {
    const text = words(100);
    const result = snippet(text, new Set(['absent']));
    expect(result.startsWith('filler0 filler1')).toBe(true);
    expect(result.endsWith('…')).toBe(true);
    expect(result.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
  });

  it('fills the allowance with earlier text when the match is near the end', () => {
    const text = `${words(100)} finale`;
    const result = snippet(text, new Set(['finale']));
    expect(result.endsWith('finale')).toBe(true);
    expect(result.length).toBeGreaterThan(SNIPPET_MAX_LENGTH - 20);
    expect(result.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
  });

  it('finds a match through the index normalization (case and diacritics)', () => {
    const text = `${words(60)} Skärgård ferries ${words(60)}`;
    expect(snippet(text, new Set(['skargard']))).toContain('Skärgård ferries');
  });
});

describe('markdownToText', () => {
  it('keeps what a reader sees and drops the markup', () => {
    const markdown = [
      '# Title',
      '',
      'Some **bold**, _emphasis_, `code` and a [link](https://example.com) with ![an image](x.png).',
      '',
      '- item one',
      '1. numbered',
      '> quoted',
      '',
      '| Code | Status |',
      '|---|---|',
      '| `rate_limited` | 429 |',
      '',
      '```sh',
      'curl https://example.com',
      '```',
      '---',
      '[ref]: https://example.com',
      '<div class="x">html</div>',
    ].join('\n');
    expect(markdownToText(markdown)).toBe(
      'Title Some bold, emphasis, code and a link with an image. item one numbered quoted Code Status rate_limited 429 curl https://example.com html',
    );
  });

  it('lists headings, but not comment lines inside code blocks', () => {
    expect(markdownHeadings('## Why\n\ntext\n```sh\n# not a heading\n```\n### How it *works* ##')).toEqual([
      'Why',
      'How it works',
    ]);
  });
});
