import type { ProjectRecord } from './schema.ts';

/**
 * A domain as people read it, everywhere it is shown (pages, cards, twins, llms.txt): its hyphens
 * become spaces and its first letter a capital ("developer-tools" -> "Developer tools"), except a
 * hyphen after a one-letter part, which belongs to the word ("e-commerce" -> "E-commerce",
 * "x-ray-imaging" -> "X-ray imaging"). The API and the URLs keep the domain as written.
 */
export function domainLabel(domain: string): string {
  const words = domain.replace(/-/g, (hyphen, offset: number) =>
    /(?:^|-)[^-]$/.test(domain.slice(0, offset)) ? hyphen : ' ',
  );
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A project as Markdown: the facts its HTML page shows, then the owner's body. The `.md` twin of
 * the page, llms-full.txt and the MCP project resources all use this one rendering.
 */
export function projectAsMarkdown({ project, markdown }: ProjectRecord): string {
  const facts = [
    `- Year: ${project.year}`,
    `- Domain: ${domainLabel(project.domain)}`,
    `- Stack: ${project.stack.join(', ')}`,
    ...(project.repository ? [`- Source code: ${project.repository}`] : []),
    ...(project.website ? [`- Website: ${project.website}`] : []),
    `- Page: ${project.url}`,
  ];
  return `# ${project.title}\n\n> ${project.description}\n\n${facts.join('\n')}\n\n${markdown.trim()}\n`;
}
