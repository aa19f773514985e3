import { markdownTwinText } from '../../functions/site/twin-text.ts';
import { createMarkdownProcessor } from '@astrojs/markdown-remark';
import { getCollection } from 'astro:content';
import { loadConfig } from '../../functions/config/env.ts';
import type { DocPage } from '../../functions/site/doc-page.ts';
import { docFacts, fillFacts } from '../../functions/discovery/doc-facts.ts';
import { MARKDOWN_OPTIONS } from './markdown-options.ts';

/** A documentation page with its facts filled in. */
export interface Doc {
  /** The file's id under content/docs, without extension: `developers/cli` is served at /developers/cli and /developers/cli.md. */
  slug: string;
  title: string;
  description: string;
  order: number;
  optional: boolean;
  markdown: string;
}

let docs: Promise<Doc[]> | undefined;

/** Every doc in navigation order, facts filled from the running configuration and schemas. */
export function loadDocs(): Promise<Doc[]> {
  docs ??= getCollection('docs').then((entries) => {
    const facts = docFacts(loadConfig());
    return entries
      .map((entry) => ({
        slug: entry.id,
        title: entry.data.title,
        description: entry.data.description,
        order: entry.data.order,
        optional: entry.data.optional,
        markdown: fillFacts(entry.body ?? '', facts, `content/docs/${entry.id}.md`),
      }))
      .sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  });
  return docs;
}

let processor: ReturnType<typeof createMarkdownProcessor> | undefined;

/** Markdown to HTML with Astro's own pipeline (Prism classes, no inline styles). */
export async function renderMarkdown(markdown: string): Promise<string> {
  processor ??= createMarkdownProcessor(MARKDOWN_OPTIONS);
  return (await (await processor).render(markdown)).code;
}

/** The Markdown twin of a doc: its title as H1, its summary as a quote, then the body. */
export function docAsMarkdown(doc: Doc): string {
  return `# ${doc.title}\n\n> ${doc.description}\n\n${doc.markdown.trim()}\n`;
}

/**
 * A doc's Markdown twin exactly as /<slug>.md serves it: links absolute (leading to twins, since
 * the twin is read away from the site) and the llms.txt pointer after the title.
 */
export function docTwin(doc: Doc): string {
  const { siteUrl } = loadConfig();
  return markdownTwinText(docAsMarkdown(doc), siteUrl, `/${doc.slug}`);
}

/** Every doc as /docs.json publishes it and the docs MCP server serves it. */
export async function docPages(): Promise<DocPage[]> {
  return (await loadDocs()).map((doc) => ({
    path: `/${doc.slug}`,
    title: doc.title,
    description: doc.description,
    markdown: docAsMarkdown(doc),
  }));
}
