import { describe, expect, it } from 'vitest';
import { absoluteMarkdownLinks } from '../../functions/site/absolute-links.ts';
import { llmsTxtPointer, withLlmsTxtPointer } from '../../functions/site/llms-txt-pointer.ts';
import { markdownTwinPath } from '../../functions/site/markdown-twin.ts';

const SITE = 'https://example.test';

describe('markdownTwinPath', () => {
  it('maps the home page to /index.md and keeps fragments', () => {
    expect(markdownTwinPath('/')).toBe('/index.md');
    expect(markdownTwinPath('/domains/web')).toBe('/domains/web.md');
    expect(markdownTwinPath('/developers#createContact')).toBe('/developers.md#createContact');
  });
});

describe('withLlmsTxtPointer', () => {
  it('puts the pointer right after the title, or first without one', () => {
    const pointer = `> ${llmsTxtPointer(SITE)}`;
    expect(withLlmsTxtPointer('# Title\n\nBody\n', SITE)).toBe(`# Title\n\n${pointer}\n\nBody\n`);
    expect(withLlmsTxtPointer('Body\n', SITE)).toBe(`${pointer}\n\nBody\n`);
    expect(pointer).toContain(`${SITE}/llms.txt`);
  });
});

describe('absoluteMarkdownLinks', () => {
  it('makes site links absolute, page links lead to twins, code blocks stay as written', () => {
    const markdown = [
      'See [auth](/auth), [the spec](/openapi.json), [tools](#mcp-servers) and [cli](/developers/cli#mcp).',
      '```md',
      '[kept](/auth)',
      '```',
      '[outside](https://other.test/x)',
    ].join('\n');
    expect(absoluteMarkdownLinks(markdown, SITE, '/developers')).toBe(
      [
        `See [auth](${SITE}/auth.md), [the spec](${SITE}/openapi.json), [tools](${SITE}/developers.md#mcp-servers) and [cli](${SITE}/developers/cli.md#mcp).`,
        '```md',
        '[kept](/auth)',
        '```',
        '[outside](https://other.test/x)',
      ].join('\n'),
    );
  });
});
