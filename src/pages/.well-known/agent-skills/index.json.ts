import type { APIRoute } from 'astro';
import { publishedSkills, skillDigest } from '../../../lib/agent-skills.ts';
import { absolute, textResponse } from '../../../lib/site-documents.ts';

/** The schema URI that identifies an Agent Skills Discovery v0.2.0 index ("Versioning"). */
const INDEX_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/**
 * /.well-known/agent-skills/index.json, Agent Skills Discovery v0.2.0: `$schema` and `skills`,
 * each skill a single SKILL.md (`type: "skill-md"`) with the digest of its exact bytes.
 */
export const GET: APIRoute = async () => {
  const index = {
    $schema: INDEX_SCHEMA,
    skills: (await publishedSkills()).map((skill) => ({
      name: skill.name,
      type: 'skill-md',
      description: skill.description,
      url: absolute(skill.path),
      digest: skillDigest(skill.markdown),
    })),
  };
  return textResponse(`${JSON.stringify(index, null, 2)}\n`, 'application/json; charset=utf-8');
};
