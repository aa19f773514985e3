import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { AGENT_SKILLS, agentSkillPath } from '../../functions/site/discovery-documents.ts';
import { docPages } from './docs.ts';

/** A skill as published: its SKILL.md bytes and what the index says of it. */
export interface PublishedSkill {
  name: (typeof AGENT_SKILLS)[number]['name'];
  /** The title of the page it is made from, for lists that name it (the AI Catalog). */
  title: string;
  description: string;
  path: string;
  markdown: string;
}

/**
 * Each skill of AGENT_SKILLS as a SKILL.md (Agent Skills format): YAML front matter with `name`
 * and `description`, then the documentation page it is made from, exactly as /<page>.md serves it.
 */
export async function publishedSkills(): Promise<PublishedSkill[]> {
  const pages = await docPages();
  return AGENT_SKILLS.map(({ name, docPath }) => {
    const page = pages.find((candidate) => candidate.path === docPath);
    if (page === undefined) throw new Error(`The skill ${name} is made from ${docPath}, which is not a doc page`);
    // One line per field (no folding), which simple front-matter readers expect.
    const frontMatter = stringify({ name, description: page.description }, { lineWidth: 0 });
    return {
      name,
      title: page.title,
      description: page.description,
      path: agentSkillPath(name),
      markdown: `---\n${frontMatter}---\n\n${page.markdown}`,
    };
  });
}

/** Agent Skills Discovery v0.2.0 "Integrity and verification": `sha256:` and the hex SHA-256 of the raw bytes. */
export function skillDigest(markdown: string): string {
  return `sha256:${createHash('sha256').update(markdown, 'utf8').digest('hex')}`;
}
