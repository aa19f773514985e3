import type { ProjectRecord } from '../../functions/projects/schema.ts';
import { domainLabel } from './catalog.ts';

/** A project page as Markdown: the facts the HTML page shows, then the owner's body. */
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
