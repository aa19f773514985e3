import type { ProjectRecord } from './schema.ts';

/** "developer-tools" -> "Developer tools". */
export function domainLabel(domain: string): string {
  const words = domain.replace(/-/g, ' ');
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
